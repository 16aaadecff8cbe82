"""The charts a stage's page shows, with their numbers: the ChGK season's progression and a
tour's question strip (``chgk``), finish times per group with the quota cut (``finish``),
bowling lines per squad (``squads``); ``stage`` picks those that fit a stage and draws them
once per version, on what every chart is made of (``common``).
"""
