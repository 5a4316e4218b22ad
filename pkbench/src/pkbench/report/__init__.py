"""The HTML report of one results directory (render.py) and the comparison of several (comparison.py).

Both read only what docs/results.md describes (results.json and timeseries/*.csv) and write one
self-contained HTML file that opens offline: plotly's JavaScript is inlined once per page.
"""
