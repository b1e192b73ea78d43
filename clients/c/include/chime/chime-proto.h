/*
 * libchime-client's raw protobuf access (opt-in): the protobuf-c messages generated from
 * Protos/chime/v1 behind the opaque types of <chime/chime.h>, and calls that take and give
 * them. What this header declares follows Protos/: a program that includes it is rebuilt
 * when the protocol changes. Link with -lprotobuf-c too (`pkg-config --cflags --libs
 * chime-client libprotobuf-c`).
 *
 * Messages returned here are borrowed from their opaque object (they live as long as it)
 * unless said otherwise. The generated code's functions and descriptors
 * (chime__v1__*__pack, chime__v1__*__descriptor, ...) are exported by the library.
 */
#ifndef CHIME_CHIME_PROTO_H
#define CHIME_CHIME_PROTO_H

#include <chime/chime.h>

#include "chime/v1/notification_center.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Any unary call with protobuf-c messages: `method` as in chime_call; on success *out (may
 * be NULL when not wanted) is the unpacked response of type `response_type`, the caller's,
 * freed with chime_message_free.
 */
int chime_call_message(chime_client *client, const char *method, const ProtobufCMessage *request,
                       const ProtobufCMessageDescriptor *response_type, ProtobufCMessage **out, chime_error *error);
/* Frees a message returned by chime_call_message (protobuf_c_message_free_unpacked). */
void chime_message_free(void *message);

/* RegisterExtension with every field of the request (attributes included). */
int chime_register_extension_message(chime_client *client, const Chime__V1__RegisterExtensionRequest *request,
                                     chime_extension_callback callback, void *context, chime_error *error);

/* The request a builder holds. Fields set through it are freed with the builder: strings and
 * sub-messages stored in it must be allocated with malloc (as protobuf-c's unpack does). */
Chime__V1__NotificationRequest *chime_request_message(chime_request *request);
Chime__V1__Category *chime_category_message(chime_category *category); /* same rule */

/* What a notification wraps: its request always; the pending or delivered record when it is one. */
const Chime__V1__NotificationRequest *chime_notification_request_message(const chime_notification *notification);
const Chime__V1__PendingRequest *chime_notification_pending_message(const chime_notification *notification);
const Chime__V1__DeliveredNotification *chime_notification_delivered_message(const chime_notification *notification);

const Chime__V1__Event *chime_event_message(const chime_event *event);
const Chime__V1__ExtensionEvent *chime_extension_event_message(const chime_extension_event *event);
const Chime__V1__NextTriggerDatesResponse *chime_date_list_message(const chime_date_list *list);
const Chime__V1__NotificationSettings *chime_settings_message(const chime_settings *settings);
const Chime__V1__AppLayout *chime_app_message(const chime_app *app);
const Chime__V1__DoNotDisturbState *chime_dnd_message(const chime_dnd *dnd);
const Chime__V1__CheckSoundResponse *chime_sound_check_message(const chime_sound_check *check);
const Chime__V1__ServerInfo *chime_server_info_message(const chime_server_info *info);

#ifdef __cplusplus
}
#endif

#endif /* CHIME_CHIME_PROTO_H */
