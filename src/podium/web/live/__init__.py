"""The live tables: version tags of what changed, the shared cache, single flight and the
poll gate that answers spectators from the cache. Imports no domain."""
