"""The compiled search behind distance maps, paths and reach (numba).

State space: (square, posture/parity), three states per square: standing with diagonal parity
0, standing with parity 1, prone. A label is the lexicographic pair (move actions started,
squares used in the current move action), encoded as the integer ``key = n_units << kb | f``
with ``2**kb > speed_squares`` (see :func:`key_bits`) and ``n_units`` counting move actions in
units of ``1/M`` (M = 1 for guaranteed times; a common denominator of the expected tries
otherwise). Integer order is the label order. Labels only grow along transitions, so a bucket
queue (Dial's algorithm) finds exact minimum labels. With a goal it is an A* search: a cheap
backward search (:func:`squares_to_goal`) bounds the squares' worth of movement still to go
from every square, and :func:`eta` turns that into a consistent estimate of the arrival label.

Transitions (RULES §6.1-6.3, §2.4, §5.1, §7.30, §7.35):

* walk (standing, into a WALK square): cost ``c`` squares: orthogonal ``m``; a diagonal with
  ``m == 1`` alternates 1, 2 by the parity, counted over the whole move of a turn (the two move
  actions of a double move are one continuous move; the parity resets when a turn starts); a
  diagonal with ``m >= 2`` costs ``1.5 m`` and does not advance the parity (§6.3). It fits in the
  current move action if ``f + c <= speed``; else, in a turn's first move action, it goes on
  into the second, which pays the rest (``f + c - speed``): the two move actions of a turn are
  one move of up to twice the speed (a double move, §6.1). A step that does not fit what is
  left of the turn waits for the next one (the count restarts: one move action, or the double
  move when ``c > speed``); dearer than twice the speed, only the minimum-movement full-round
  action (one square at the start of a turn, §6.1) can take it, or dropping prone (free) and
  crawling.
* crawl (prone, or into a CRAWL square): one square per move action (§5.1), times the square's
  multiplier (half speed applies to crawling too; a crawl square counts 1, or 2 over rubble).
* stand up (prone, on a WALK square): a move action (§5.1).
* Awkward Space: ``awk_units`` for the tries, a move action each; Tight Squeeze: a full-round
  action per try started at the beginning of a turn, ``tight_units`` in all (§7.30). Posture
  afterwards follows the square.
* no diagonal past a corner square (§6.2): encoded in the per-square direction masks.

Exactness: every state is settled at its own least label, as the plain-Python reference search
of the tests does; no state is dropped because another state of its square looks better. (An
earlier parity 0 label is *not* always better than a later parity 1 one: the 1, 2 pattern can
line up with the end of a move action so that the parity-1 walker ends the next action a square
ahead; the same goes for fractional move actions, whatever the parity.) Only what provably
brings nothing is skipped: a prone label when a standing state of the square is as early (it
can do everything prone does; standing up only leads to parity 0 one action later, checked
too), and a neighbour whose two standing labels are already at most ``key + 1``, the least any
step adds. A standing state whose other parity is final too (its label at most one more than
the bucket's) is expanded with it, sharing the loads.

Memory layout, chosen so that a relaxation touches few cache lines:

* ``words`` (uint16, one per square, :func:`cell_words`): direction mask, mode, prone flag and
  multiplier of the square, packed.
* ``key`` (int32, ``3 N``): the two standing states of square ``i`` side by side at ``2 i``
  (parity 0) and ``2 i + 1`` (parity 1); the prone states, rarely touched, after them at
  ``2 N + i``. ``pred`` / ``walked`` / ``done`` use the same state index.
* the bucket queue is a ring of singly linked lists over a small recycled pool (its entries are
  freed as they are popped, so it stays the size of the frontier and in cache); the rows around
  a newly queued square are prefetched while it waits for its turn.
* the work arrays of a map are kept between calls (:class:`Scratch`, held by the MoveField):
  fresh memory costs page faults on every call.

Each query is one compiled call (:func:`distance`, :func:`path`, :func:`reach`). A distance map
needs neither a goal nor predecessors nor the feet walked: its search (:func:`distance_search`)
is compiled apart, with the same states, transitions and pruning, and a loop tuned for what costs
there (see its docstring): on a cave most of the time went to mispredicted branches (walls and 2x
squares make the labels irregular), not to memory.

The package, a module per query over shared parts: :mod:`.layout` (modes, square words, key
bits, ring size), :mod:`.work` (the kept work arrays), :mod:`.lowlevel` (unchecked loads and
stores, prefetch), :mod:`.steps` (the rules of one step, shared by every search), then
:mod:`.search` (with its A* estimate), :mod:`.distance`, :mod:`.path` and :mod:`.reach`. The
shared compiled helpers are inlined into each search (``inline="always"``), so each query is
still one compiled loop; a search's loop hands its arrays to the helpers as raw pointers
(:func:`~.lowlevel.pointer`), on which numba counts no references. numba's cache checks the source file of the function it compiled only:
after editing :mod:`.steps` or :mod:`.lowlevel`, clear the ``__pycache__`` of this folder (or
touch the query modules) so that no search loads a stale build.
"""

from __future__ import annotations

from sim.terrain.movement.kernel.distance import EXPANDED, distance, distance_search
from sim.terrain.movement.kernel.layout import (AWKWARD, BLOCKED, CRAWL, CRAWLED_IN, DIRS, EDGE_BOTTOM, EDGE_LEFT,
                                                EDGE_RIGHT, EDGE_TOP, KIND_CRAWL, KIND_ESCAPE, KIND_SQUEEZE,
                                                KIND_STAND, KIND_WALK, MAX_MULT, PRONE, TIGHT, UNREACHED, WALK,
                                                cell_words, direction_masks, key_bits, ring_size)
from sim.terrain.movement.kernel.path import path
from sim.terrain.movement.kernel.reach import reach
from sim.terrain.movement.kernel.search import run, search, squares_to_goal
from sim.terrain.movement.kernel.work import Scratch, Work

__all__ = ["AWKWARD", "BLOCKED", "CRAWL", "CRAWLED_IN", "DIRS", "EDGE_BOTTOM", "EDGE_LEFT", "EDGE_RIGHT", "EDGE_TOP",
           "EXPANDED", "KIND_CRAWL", "KIND_ESCAPE", "KIND_SQUEEZE", "KIND_STAND", "KIND_WALK", "MAX_MULT", "PRONE",
           "Scratch", "TIGHT", "UNREACHED", "WALK", "Work", "cell_words", "direction_masks", "distance",
           "distance_search", "key_bits", "path", "reach", "ring_size", "run", "search", "squares_to_goal"]
