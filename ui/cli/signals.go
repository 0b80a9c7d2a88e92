package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that stop a run as Ctrl-C does: SIGINT, and
// SIGTERM, which `timeout`, `docker stop` and systemd send. Either ends the
// streams in flight `cancelled`, checked and saved, and prints the total.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// notifyStop is signal.NotifyContext for stopSignals.
func notifyStop(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, stopSignals...)
}
