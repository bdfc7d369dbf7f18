"""The course itself, as data: where its files live, its lessons, their grade cells and worked examples.

The bottom layer of the kit: it imports nothing else of the kit, and everything
else may import it.
"""
