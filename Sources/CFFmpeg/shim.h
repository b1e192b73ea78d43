// FFmpeg's libraries for the thumbnail renderer: demux and decode one frame of a movie, an
// animated GIF or an animated PNG, and convert it to RGBA. Only ChimeThumbnail imports it.
// The helpers stand in for macros Swift cannot import (AVERROR_EOF) and for sws_scale's
// array-of-planes arguments, which Swift sees as fixed-size tuples.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>

static inline int chime_averror_eof(void) { return AVERROR_EOF; }
static inline int chime_averror_eagain(void) { return AVERROR(EAGAIN); }

/// Converts a decoded frame into one packed RGBA plane of `dst_stride` bytes per row.
static inline int chime_sws_to_rgba(struct SwsContext *context, const AVFrame *frame, uint8_t *dst, int dst_stride) {
  uint8_t *planes[4] = { dst, NULL, NULL, NULL };
  int strides[4] = { dst_stride, 0, 0, 0 };
  return sws_scale(context, (const uint8_t * const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
}
