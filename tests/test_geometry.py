"""Combat geometry: distances, reach, cover, flanking, cones and bursts (SRD Combat, RULES §6-8)."""

import numpy as np

from sim.terrain.geometry import (burst, cone, cover, distance_ft, flanking, footprint_distance_ft, line_clear,
                          line_of_effect, threatened)


def test_5_10_5_distance():
    assert distance_ft((0, 0), (1, 1)) == 5
    assert distance_ft((0, 0), (2, 2)) == 15
    assert distance_ft((0, 0), (4, 4)) == 30
    assert distance_ft((0, 0), (6, 0)) == 30
    assert footprint_distance_ft([(0, 0), (1, 0), (0, 1), (1, 1)], [(3, 1)]) == 10


def test_threatened_squares():
    assert len(threatened({(5, 5)}, 5)) == 8
    large = {(5, 5), (6, 5), (5, 6), (6, 6)}
    t10 = threatened(large, 10)  # a Large tall creature: reach 10, adjacent squares too
    assert (4, 4) in t10 and (3, 5) in t10 and (8, 6) in t10
    assert (3, 3) not in t10  # 15 ft away diagonally
    spear = threatened({(5, 5)}, 10, reach_weapon=True)
    assert (6, 5) not in spear and (7, 5) in spear and (7, 6) in spear and (7, 7) not in spear
    assert threatened({(5, 5)}, 0) == set()  # Tiny and smaller, swarms


def test_lines_and_cover_from_rock():
    rock = np.zeros((6, 6), bool)
    rock[2, 2] = True
    assert not line_clear(rock, (0.5, 2.5), (5.5, 2.5))
    assert line_clear(rock, (2, 0), (2, 6))  # along the edge of the rock square: not blocked
    # target right behind the rock pillar: every corner line is blocked from one side
    assert cover(rock, [(0, 2)], [(4, 2)])
    assert not cover(rock, [(0, 0)], [(4, 0)])
    assert line_of_effect(rock, [(0, 2)], [(4, 2)])  # some corner sees a corner


def test_cover_from_creatures_for_ranged():
    rock = np.zeros((3, 7), bool)
    assert cover(rock, [(0, 1)], [(6, 1)], creatures={(3, 1)})
    assert not cover(rock, [(0, 1)], [(6, 1)])


def test_flanking():
    assert flanking([(4, 5)], [(6, 5)], [(5, 5)])
    assert flanking([(4, 4)], [(6, 6)], [(5, 5)])      # opposite corners
    assert not flanking([(4, 5)], [(5, 4)], [(5, 5)])  # adjacent sides
    assert not flanking([(4, 4)], [(6, 5)], [(5, 5)])  # not opposite
    big = [(5, 5), (6, 5), (5, 6), (6, 6)]
    assert flanking([(4, 5)], [(7, 6)], big)


def test_burst_10_ft_radius_is_12_squares():
    sq = burst((6, 6), 10, (12, 12))
    assert len(sq) == 12 and (4, 4) not in sq and (7, 7) not in sq and (5, 4) in sq and (6, 6) in sq


def test_cone_15_ft():
    rock = np.zeros((12, 12), bool)
    diag = cone((5, 5), (1, 1), 15, rock)
    assert sorted(diag) == [(5, 5), (5, 6), (5, 7), (6, 5), (6, 6), (7, 5)]
    east = cone((5, 5), (1, 0), 15, rock)
    assert len(east) == 8 and (5, 4) in east and (5, 5) in east and (7, 4) in east and (8, 5) not in east
    rock[:, 6] = True  # a wall right in front: the cone stops at rock
    assert sorted(cone((5, 5), (1, 0), 15, rock)) == [(5, 4), (5, 5)]


def test_a_line_along_the_seam_inside_a_wall_is_blocked_along_its_face_clear():
    rock = np.zeros((5, 6), bool)
    rock[1:4, 3] = True           # a wall three squares long
    assert not line_clear(rock, (3, 2), (4, 2))     # between two of its squares: inside the wall
    assert line_clear(rock, (3.0, 1.0), (3.0, 3.5))  # along its west face
    rock[1:4, 4] = True           # two squares thick: the seam x = 4 runs inside it
    assert not line_clear(rock, (4.0, 1.0), (4.0, 3.5))
    assert line_clear(rock, (3, 1), (4, 1))         # along its top face: rock on one side only
    assert line_clear(rock, (5, 1.5), (5, 3.5))     # along its east face
