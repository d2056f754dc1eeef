"""The table: play the project's games against its bots in a web browser, and watch game records.

``python -m play`` (or ``make play``) starts the server and prints its address; ``docs/play.md`` is the
user's page. The parts:

| module | what |
|---|---|
| ``play.server`` | the FastAPI app: pages, the table API, replays, rules pages |
| ``play.session`` | one table per browser game: the env, the bots thinking in the background, the score |
| ``play.views`` | the JSON a page draws a table from, built for one seat from the env (only what it may know) |
| ``play.replay`` | reading game-record files and replaying any step of a record |
| ``play.rules`` | the rules pages, rendered from ``docs/rules`` |
| ``play.catalog`` | the games, their options, names of suits and actions |
| ``play.pages`` | the head and top bar every HTML page shares |
| ``play/static`` | the page: plain HTML, CSS and JavaScript modules, nothing to build |
"""

import trick_core.extras  # noqa: F401  (a command whose extra is missing fails with one line naming it)
