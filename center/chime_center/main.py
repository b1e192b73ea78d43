"""chime-center: starts Chime Center (one window; a second start raises it)."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, Gdk, Gio, GLib, Gtk  # noqa: E402

from . import APP_ID  # noqa: E402
from .model import Chime  # noqa: E402
from .window import CenterWindow  # noqa: E402


class CenterApp(Adw.Application):
    def __init__(self):
        super().__init__(application_id=APP_ID, flags=Gio.ApplicationFlags.FLAGS_NONE)
        self.chime = None

    def do_activate(self):
        window = self.get_active_window()
        if window is None:
            try:
                self.chime = Chime()
            except GLib.Error as e:
                print(f"chime-center: no session bus: {e.message}", file=sys.stderr)
                self.quit()
                return
            window = CenterWindow(self, self.chime)
            window.refresh()
        window.present()

    def do_shutdown(self):
        if self.chime is not None:
            self.chime.close()
        Adw.Application.do_shutdown(self)


def main(argv=None):
    GLib.set_prgname("chime-center")
    GLib.set_application_name("Chime Center")
    if not Gtk.init_check() or Gdk.Display.get_default() is None:
        print("chime-center: no display to open a window on (is DISPLAY or WAYLAND_DISPLAY set?)", file=sys.stderr)
        return 1
    return CenterApp().run(argv if argv is not None else sys.argv)
