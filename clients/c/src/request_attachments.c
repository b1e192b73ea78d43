/* libchime-client: a request's attachments and their options (thumbnail, clip, frame time). */
#include <stdlib.h>
#include <string.h>

#include "chime-private.h"

int chime_request_add_attachment(chime_request *request, const char *identifier, const char *path,
                                 const char *type_hint) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  if (path == NULL) {
    return chimei_request_note(request, CHIME_INVALID_ARGUMENT);
  }
  Chime__V1__NotificationContent *content = request->message->content;
  Chime__V1__Attachment **grown = realloc(content->attachments, (content->n_attachments + 1) * sizeof *grown);
  if (grown == NULL) {
    return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  content->attachments = grown;
  Chime__V1__Attachment *attachment = malloc(sizeof *attachment);
  Chime__V1__AttachmentOptions *options = malloc(sizeof *options);
  if (attachment == NULL || options == NULL) {
    free(attachment);
    free(options);
    return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  chime__v1__attachment__init(attachment);
  chime__v1__attachment_options__init(options);
  attachment->options = options;
  content->attachments[content->n_attachments++] = attachment;
  int code = chimei_set_text(&attachment->identifier, identifier);
  if (code == CHIME_OK) {
    code = chimei_set_text(&attachment->path, path);
  }
  if (code == CHIME_OK) {
    code = chimei_set_text(&options->type_hint, type_hint);
  }
  return chimei_request_note(request, code);
}

/* The options of attachment `index`, or NULL (noted as a bad argument). */
static Chime__V1__AttachmentOptions *options_of(chime_request *request, size_t index) {
  const Chime__V1__NotificationContent *content = request->message->content;
  if (index >= content->n_attachments) {
    chimei_request_note(request, CHIME_INVALID_ARGUMENT);
    return NULL;
  }
  return content->attachments[index]->options;
}

int chime_request_set_attachment_thumbnail_hidden(chime_request *request, size_t index, bool hidden) {
  Chime__V1__AttachmentOptions *options = request != NULL ? options_of(request, index) : NULL;
  if (options == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  options->thumbnail_hidden = hidden;
  return CHIME_OK;
}

int chime_request_set_attachment_clip(chime_request *request, size_t index, double x, double y, double width,
                                      double height) {
  Chime__V1__AttachmentOptions *options = request != NULL ? options_of(request, index) : NULL;
  if (options == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  if (options->clip_set_case != CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT) {
    options->thumbnail_clipping_rect = malloc(sizeof *options->thumbnail_clipping_rect);
    if (options->thumbnail_clipping_rect == NULL) {
      return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
    }
    chime__v1__clip_rect__init(options->thumbnail_clipping_rect);
    options->clip_set_case = CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT;
  }
  Chime__V1__ClipRect *clip = options->thumbnail_clipping_rect;
  clip->x = x;
  clip->y = y;
  clip->width = width;
  clip->height = height;
  return CHIME_OK;
}

int chime_request_set_attachment_thumbnail_time(chime_request *request, size_t index, double seconds) {
  Chime__V1__AttachmentOptions *options = request != NULL ? options_of(request, index) : NULL;
  if (options == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  options->time_set_case = CHIME__V1__ATTACHMENT_OPTIONS__TIME_SET_THUMBNAIL_TIME;
  options->thumbnail_time = seconds;
  return CHIME_OK;
}
