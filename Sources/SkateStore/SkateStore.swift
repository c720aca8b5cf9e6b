// SkateStore — filled in by its issue.
