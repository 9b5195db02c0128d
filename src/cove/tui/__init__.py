"""The terminal user interface of ``cove play``: fitted turn screens (layout), the turn
loop in a redraw or a plain mode (play), score summaries (summary), and what a game's
package tells the terminal beyond the contract (hooks)."""
