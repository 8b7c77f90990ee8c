"""XFCC (issue 26): desktop correspondence clients (Scid, ChessBase, Arena) play corr's chess server games.

XfccBasic is a SOAP 1.1 service of two operations, ``GetMyGames`` and ``MakeAMove``, in the
namespace :data:`NAMESPACE`, served at ``/xfcc/xfccbasic.asmx`` as ICCF's server serves it:

- :mod:`.soap` reads a request's envelope (``defusedxml``: no DTD, no entity) and writes answers
  and faults in the forms clients parse;
- :mod:`.games` is ``GetMyGames``' selector: one ``XfccGame`` per ongoing chess server game;
- :mod:`.moves` is ``MakeAMove``: the API's services behind the enum clients understand;
- :mod:`.views` is the thin edge: HTTPS, size, throttle, sign-in, dispatch on the body's element.
"""

NAMESPACE = "http://www.bennedik.com/webservices/XfccBasic"
"""XfccBasic's namespace: every operation's element and its children."""
