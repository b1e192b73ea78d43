"""Screenshots of each page of Chime Center (scripts/center-screenshots.sh sets the session up
and seeds it): switches pages through AT-SPI, as center_test.py does, and captures the window
with ImageMagick's `import` once the page shows what was seeded."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import center_test as t  # noqa: E402

OUT = sys.argv[1]
PAGES = [
    ("Scheduled", "center-scheduled.png", ("push button", "Remove Standup")),
    ("Delivered", "center-delivered.png", ("push button", "Remove Kettle boiled")),
    ("Apps", "center-apps.png", ("list", "Tea Timer")),
    ("Do Not Disturb", "center-dnd.png", ("label", "On, turned on by you")),
    ("Calendars", "center-calendars.png", ("label", "1 alarm scheduled")),
]


def main():
    frame = t.present("frame", "Chime Center")
    t.press(t.present("push button", "Refresh"))
    x, y, w, h = frame.queryComponent().getExtents(t.pyatspi.WINDOW_COORDS)
    for title, name, (role, label) in PAGES:
        t.open_page(title)
        t.present(role, label, prefix=True, within=[f"{title} page"])
        path = os.path.join(OUT, name)
        subprocess.run(["import", "-window", "root", "-crop", f"{w + 12}x{h + 12}+{x}+{y}", "+repage", path],
                       check=True, timeout=20)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
