"""`rulekit serve`: play in the browser."""
