"""Rules as data plus the procedures that read it: sizes, bodies, categories, weapons, dice."""
