"""The rules page: a rulebook told in sentences, each with the clause it comes from.

``page`` puts the sections in order; each other module tells the part of the rulebook its
schema module holds (``registration``, ``classification``, ``stages``, ``ranking``,
``discipline``), in the lines of ``lines``.
"""
