"""progexec."""
