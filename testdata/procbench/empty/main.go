// Command empty does nothing: the start-up time every Go program pays,
// beside which BenchmarkStartup (e2e/startup_bench_test.go) measures
// framescope's (issue 23 item 14).
package main

func main() {}
