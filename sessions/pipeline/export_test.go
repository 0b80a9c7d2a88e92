package pipeline

// Hooks for the pipeline's external tests (package pipeline_test), which
// check through the report package and so cannot be inside the package.
var (
	// TinyWindow is the tiny-batch window (bytes), made small by a fuzz
	// test so that short inputs cross it.
	TinyWindow = &tinyWindow
	// StageHandoffs and StageTinyBatches count the batches the read stage
	// handed on, and how many of them were tiny.
	StageHandoffs, StageTinyBatches = &stageHandoffs, &stageTinyBatches
)
