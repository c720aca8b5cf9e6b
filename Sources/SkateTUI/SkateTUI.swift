// SkateTUI — filled in by its issue.
