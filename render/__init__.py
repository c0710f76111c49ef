"""Images of tables and hands (Pillow): a *view* dict in, PNG bytes out.

The renderers only ever receive views already filtered by the engine, so they cannot show a
hidden tile.  Public entry points: :func:`render.table.render_table`,
:func:`render.hand.render_hand`, :func:`render.table.warm_up` (call once at start-up) and the
tile helpers of :mod:`render.tiles`.
"""
