"""The leaves every other room stands on: errors, positions, file reading and writing, shipped
paths, numba readied once, bounded number parsers. Nothing here imports another room of sim."""
