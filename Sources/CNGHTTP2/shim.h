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
