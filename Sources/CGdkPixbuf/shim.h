// gdk-pixbuf for the thumbnail renderer: decode PNG, JPEG and GIF through a loader of the type
// the inspector decided, crop, scale and save PNG. Only ChimeThumbnail imports it.
#include <gdk-pixbuf/gdk-pixbuf.h>
