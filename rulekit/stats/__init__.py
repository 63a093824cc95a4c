"""The statistics rulekit reports with, below everything that reports them: the batch
engine, the bots' calibration and the simulations all import it, and it imports none of them.

moments: the mean and 95% interval of a figure (Student's t); tally: what a simulation counts,
exactly; significance: p-values and Holm's correction of many paired differences; ordered:
sums of float columns added in the order a loop over the rounds would add them."""
