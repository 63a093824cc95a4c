"""Scenario files: rounds written down, played, and checked against the rules."""
