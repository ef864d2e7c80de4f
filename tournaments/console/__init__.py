"""The organiser's console: the site pages that run a tournament night (issue #18).

One module per part of the evening, each with its own views, its own inclusion tag (in
``tournaments/templatetags/console_<part>.py``) drawing its section of the hub page, and its
own URLs in ``tournaments/urls_console.py``:

- ``hub`` — ``/tournaments/<id>/console/``, the page every other part hangs from;
- ``setup`` — creating a tournament from the game's defaults, its settings, registration,
  the join link and its QR code, check-in, late entry, drops and the waitlist;
- ``rounds`` — pairing, the draft with its warnings, swaps, fixed tables, confirm, publish;
- ``results`` — results from the game or from a phone, confirmations, the organiser's
  corrections, result slips;
- ``screen`` — the round's timer and the projector page.

Views are thin: they read the request, call one service or selector and render. Every refusal
is the service's sentence with its status (``tournaments.errors``), never a 500.
"""
