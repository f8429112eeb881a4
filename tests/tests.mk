# tests: build rules (filled in by its area's work)
