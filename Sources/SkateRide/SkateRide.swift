// SkateRide — filled in by its issue.
