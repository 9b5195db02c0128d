"""High Water: speed figures and a balance survey of the DESIGN completion.

    .venv/bin/python benchmarks/high_water_profile.py speed [--games 200]
    .venv/bin/python benchmarks/high_water_profile.py balance [--games 1000] [--policy random]

``speed``: random full games/s and decisions/s per player count (logging off), clone()/s.
``balance``: seeded games per player count; mean rounds, seat win rates (shared wins
split), how the games ended (goal / round cap / quests exhausted), mean winning influence.
Policies: ``random`` (uniform legal moves), ``busy`` (random, but rarely stops while it can
act) and ``planner`` (a simple scripted player: finish tasks, buy quests, buy a few crew,
turn spare dice into gold/rum). Random play is a weak proxy for real players.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from cove.core.actions import Action
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.high_water import GAME
from cove.games.high_water.actions import Activate, Advance, Buy, Next, Stop, Take, Target, Use
from cove.games.high_water.common import SEG
from cove.games.high_water.state import HighWaterState
from cove.lab.runner import RandomChooser, advance, play_out

Policy = Callable[[HighWaterState, int, Rng], Action]


def random_policy(s: HighWaterState, p: int, rng: Rng) -> Action:
    return rng.choice(s.legal_actions(p))


def busy_policy(s: HighWaterState, p: int, rng: Rng) -> Action:
    acts = s.legal_actions(p)
    busy = [a for a in acts if str(a) not in ("stop", "next step", "end segment")]
    if busy and rng.random() < 0.85:
        return rng.choice(busy)
    return rng.choice(acts)


def planner_policy(s: HighWaterState, p: int, rng: Rng) -> Action:
    acts = list(s.legal_actions(p))
    D = s.D
    if s.phase != SEG:
        if isinstance(acts[0], Take):
            return max(acts, key=lambda a: sum(int(x[-1]) for x in str(a).split("(")[1][:-1]
                                               .split()))
        return rng.choice(acts)
    if s.pending is not None:
        targets = [a for a in acts if isinstance(a, Target)]
        if targets:  # the leader, ties at random (a fixed tie-break would favour seats)
            best = max(s.influence[a.player] for a in targets)
            return rng.choice([a for a in targets if s.influence[a.player] == best])
        return acts[0]
    by_key = {c.key: c for c in D.cards}
    adv = [a for a in acts if isinstance(a, Advance)]
    if adv:
        return adv[0]
    buys = [a for a in acts if isinstance(a, Buy)]
    quests = [a for a in buys if by_key[a.card].kind == "quest"]
    if quests:
        return max(quests, key=lambda a: by_key[a.card].influence)
    if buys and len(s.crew[p]) < 3:
        return rng.choice(buys)
    acts_ = [a for a in acts if isinstance(a, Activate)]
    if acts_:
        return acts_[0]
    uses = [a for a in acts if isinstance(a, Use)]
    if uses:
        need_gold = need_rum = 0
        for cid, done, _ in s.quests[p]:
            t = D.cards[cid].tasks[done]
            need_gold += t.gold
            need_rum += t.rum
        for a in uses:
            col = D.colours[a.die // 10]
            if col.name == "green" or (col.name == "red" and rng.random() < 0.5):
                return a
            if col.name == "yellow" and (need_gold > s.gold[p] or len(s.dice[p]) > 3):
                return a
            if col.name == "brown" and (need_rum > s.rum[p] or len(s.dice[p]) > 3):
                return a
    nxt = [a for a in acts if isinstance(a, Next)]
    return nxt[0] if nxt else next(a for a in acts if isinstance(a, Stop))


POLICIES: dict[str, Policy] = {
    "random": random_policy, "busy": busy_policy, "planner": planner_policy,
}


def play(n: int, seed: int, policy: Policy, **options: object) -> HighWaterState:
    s = GAME.new(n, seed=seed, log=False, **options)
    assert isinstance(s, HighWaterState)
    rng = Rng(seed ^ 0x5EED)

    def choose(state: State, p: int) -> Action:
        return policy(s, p, rng)

    play_out(s, choose)
    return s


def speed(games: int) -> None:
    for n in range(2, 6):
        t = time.perf_counter()
        dec = 0
        for seed in range(games):
            dec += play(n, seed, random_policy).decisions
        dt = time.perf_counter() - t
        print(f"{n} players: {games / dt:7.1f} random games/s, {dec / dt:9.0f} decisions/s, "
              f"{dec / games:.0f} decisions/game")
    states = []
    choose = RandomChooser(Rng(3))
    for seed in range(20):
        s = GAME.new(4, seed=seed, log=False)
        advance(s, choose, moves=150)
        states.append(s)
    k = 0
    t = time.perf_counter()
    while time.perf_counter() - t < 2.0:
        for s in states:
            s.clone()
        k += len(states)
    print(f"clone(): {k / (time.perf_counter() - t):,.0f} per second (4 players, mid-game)")


def balance(games: int, policy_name: str, base: int = 0) -> None:
    policy = POLICIES[policy_name]
    print(f"policy {policy_name}, {games} seeded games per player count")
    for n in range(2, 6):
        rounds, wins, ends, top = [], [0.0] * n, {"goal": 0, "round cap": 0,
                                                  "quests exhausted": 0}, []
        reach20 = []
        for seed in range(games):
            s = play(n, base + 1000 * n + seed, policy)
            rounds.append(s.rnd)
            w = s.winners()
            for p in w:
                wins[p] += 1 / len(w)
            ends[s.end_reason] += 1
            top.append(max(s.influence))
            if s.end_reason == "goal":
                reach20.append(s.rnd)
        seats = " ".join(f"P{p + 1} {100 * wins[p] / games:4.1f}%" for p in range(n))
        goal = (f"; goal reached in round {statistics.mean(reach20):.1f} on average"
                if reach20 else "")
        print(f"{n}p: mean rounds {statistics.mean(rounds):5.2f}  seats: {seats}  "
              f"ends: goal {100 * ends['goal'] / games:.1f}% round cap "
              f"{100 * ends['round cap'] / games:.1f}% quests out "
              f"{100 * ends['quests exhausted'] / games:.1f}%  mean winning influence "
              f"{statistics.mean(top):.1f}{goal}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("speed", "balance"))
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--policy", choices=sorted(POLICIES), default="random")
    ap.add_argument("--base", type=int, default=0, help="added to every game seed")
    a = ap.parse_args()
    if a.what == "speed":
        speed(a.games or 200)
    else:
        balance(a.games or 1000, a.policy, a.base)


if __name__ == "__main__":
    main()
