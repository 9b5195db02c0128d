"""The clock's parts of the pages (static/clock.js fills them): the lobby's clock fields,
the table's clocks card (each seat's time, away, bot takeovers and their choices) and the
"Notify me" box for your turn."""

from __future__ import annotations

from cove.serve.clock import describe as describe_clock

__all__ = ["CLOCK_CARD", "CLOCK_FIELDS", "NOTIFY", "describe_clock"]

CLOCK_FIELDS = """<div class="row"><label for="clock">Clock</label>
<select id="clock" aria-describedby="clock-help">
<option value="none">none (no clock)</option>
<option value="realtime">real-time: 10 min + 20 s a move</option>
<option value="turn-based">turn-based: 3 days + 1 day a move</option>
<option value="custom">custom…</option></select></div>
<p id="clock-help" class="muted small">A starting time, plus time for each move (never above
the starting time). A player out of time may be replaced by a bot, if the others choose.</p>
<fieldset id="clock-custom" hidden><legend>Custom clock</legend>
<div class="row"><label for="clock-mode">Kind</label><select id="clock-mode">
<option value="realtime">real-time (1 minute to 3 hours)</option>
<option value="turn-based">turn-based (1 hour to 30 days)</option></select></div>
<div class="row"><label for="clock-allowance">Starting time</label>
<input type="number" id="clock-allowance" min="0" step="any" value="10">
<select id="clock-allowance-unit" aria-label="Starting time in"><option value="60">minutes
</option><option value="3600">hours</option><option value="86400">days</option></select></div>
<div class="row"><label for="clock-per-move">Time per move</label>
<input type="number" id="clock-per-move" min="0" step="any" value="20">
<select id="clock-per-move-unit" aria-label="Time per move in"><option value="1">seconds
</option><option value="60">minutes</option><option value="3600">hours</option>
<option value="86400">days</option></select></div></fieldset>"""

CLOCK_CARD = """<section class="card" id="clocks-card" hidden><h2 id="clocks-head">Clocks</h2>
<ul id="clocks" class="clocks" aria-labelledby="clocks-head"></ul>
<div id="timeout-choices" hidden></div>
<button type="button" id="reclaim" hidden>Take my seat back</button>
<p id="reclaim-note" class="small" hidden></p>
<p id="clock-error" role="alert" hidden></p></section>"""

NOTIFY = """<p class="notify small"><label><input type="checkbox" id="notify"> Notify me
when it is my turn</label> <span id="notify-note" class="muted" role="status"></span></p>"""
