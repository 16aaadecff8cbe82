"""Forms: what a page asks for, checked for shape; the rules themselves are in services."""
