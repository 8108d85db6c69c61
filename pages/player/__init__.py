"""The in-browser player: its JavaScript and CSS (this folder) and the Streamlit component
that mounts them on a page or writes them into one offline HTML file (player_component)."""

from pages.player.player_component import HERE, link_step, player, player_html, player_start  # noqa: F401
from pages.player.predict_link import PREDICT_PARAMS, PREDICTION_ROUND  # noqa: F401
