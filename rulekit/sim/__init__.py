"""Simulation: many rounds or games between bots, their statistics, parallel backends."""
