"""Throughput and latency benchmarks (run by hand, not by the test suite)."""
