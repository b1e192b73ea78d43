// nghttp2 (HTTP/2 framing, HPACK, flow control) for Swift, with a few accessors for the parts of
// its API Swift reads awkwardly: fields of the nghttp2_frame union and the enum constants the
// gRPC transport compares against.
#include <nghttp2/nghttp2.h>

static inline int chime_h2_frame_type(const nghttp2_frame *frame) { return frame->hd.type; }
static inline int32_t chime_h2_frame_stream(const nghttp2_frame *frame) { return frame->hd.stream_id; }
static inline int chime_h2_frame_ends_stream(const nghttp2_frame *frame) {
  return (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
}
// True for the HEADERS frame that opens a request (not trailers, not a push).
static inline int chime_h2_is_request_headers(const nghttp2_frame *frame) {
  return frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST;
}
static inline int chime_h2_is_headers(const nghttp2_frame *frame) { return frame->hd.type == NGHTTP2_HEADERS; }
static inline int chime_h2_is_data(const nghttp2_frame *frame) { return frame->hd.type == NGHTTP2_DATA; }

// One HTTP/2 setting, for nghttp2_submit_settings.
static inline nghttp2_settings_entry chime_h2_setting(int32_t id, uint32_t value) {
  nghttp2_settings_entry entry = { id, value };
  return entry;
}

// The error code of a GOAWAY or RST_STREAM frame, else 0.
static inline uint32_t chime_h2_frame_error_code(const nghttp2_frame *frame) {
  if (frame->hd.type == NGHTTP2_GOAWAY) return frame->goaway.error_code;
  if (frame->hd.type == NGHTTP2_RST_STREAM) return frame->rst_stream.error_code;
  return 0;
}
// A GOAWAY's debug data (nghttp2 puts its reason there), else empty.
static inline size_t chime_h2_goaway_debug(const nghttp2_frame *frame, const uint8_t **data) {
  if (frame->hd.type != NGHTTP2_GOAWAY) return 0;
  *data = frame->goaway.opaque_data;
  return frame->goaway.opaque_data_len;
}
