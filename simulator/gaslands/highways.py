"""placeholder"""
from simulator.gaslands.objectives import ScenarioRules

RULES: tuple[type[ScenarioRules], ...] = ()
