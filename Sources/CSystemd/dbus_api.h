// The D-Bus face of chimed: the interface's vtable (sd-bus builds it only from C macros), with
// one handler for every method that hands the message to Swift, and the `Version` property.
// sd-bus checks each call's signature against this table (a wrong one gets
// org.freedesktop.DBus.Error.InvalidArgs before Swift sees it) and answers Introspect and
// org.freedesktop.DBus.Properties from it. deploy/dbus/io.github.chime.Chime1.xml documents
// the same interface; a test compares the two.
#include <systemd/sd-bus.h>

// What the vtable's handlers reach through their userdata.
struct chime_dbus_object {
  void *context;
  // Called for every method call; answers 1 when the call was taken (replied now or later).
  int (*method)(sd_bus_message *m, void *context, sd_bus_error *error);
  // The `Version` property; owned by Swift.
  const char *version;
};

static inline int chime_dbus_method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
  struct chime_dbus_object *object = (struct chime_dbus_object *)userdata;
  return object->method(m, object->context, error);
}

static inline int chime_dbus_version(sd_bus *bus, const char *path, const char *interface, const char *property,
                                     sd_bus_message *reply, void *userdata, sd_bus_error *error) {
  (void)bus; (void)path; (void)interface; (void)property; (void)error;
  return sd_bus_message_append_basic(reply, 's', ((struct chime_dbus_object *)userdata)->version);
}

// Unprivileged: any of the user's processes may call (chimed decides who acts as which app);
// sd-bus would otherwise ask for privileges on a bus it does not know to be the user's.
#define CHIME_DBUS_M(member, in, in_names, out, out_names) \
  SD_BUS_METHOD_WITH_NAMES(member, in, in_names, out, out_names, chime_dbus_method, SD_BUS_VTABLE_UNPRIVILEGED)

static inline const sd_bus_vtable *chime_dbus_vtable(void) {
  static const sd_bus_vtable vtable[] = {
    SD_BUS_VTABLE_START(0),
    CHIME_DBUS_M("Register", "sa{sv}", SD_BUS_PARAM(app_id) SD_BUS_PARAM(options), "", ""),
    CHIME_DBUS_M("Add", "sa{sv}a{sv}a{sv}", SD_BUS_PARAM(identifier) SD_BUS_PARAM(content) SD_BUS_PARAM(trigger) SD_BUS_PARAM(options),
                 "a{sv}", SD_BUS_PARAM(result)),
    CHIME_DBUS_M("GetPending", "a{sv}", SD_BUS_PARAM(options), "aa{sv}", SD_BUS_PARAM(requests)),
    CHIME_DBUS_M("RemovePending", "as", SD_BUS_PARAM(identifiers), "as", SD_BUS_PARAM(removed)),
    CHIME_DBUS_M("RemoveAllPending", "", "", "as", SD_BUS_PARAM(removed)),
    CHIME_DBUS_M("GetDelivered", "a{sv}", SD_BUS_PARAM(options), "aa{sv}", SD_BUS_PARAM(notifications)),
    CHIME_DBUS_M("RemoveDelivered", "as", SD_BUS_PARAM(identifiers), "as", SD_BUS_PARAM(removed)),
    CHIME_DBUS_M("RemoveAllDelivered", "", "", "as", SD_BUS_PARAM(removed)),
    CHIME_DBUS_M("NextTriggerDates", "a{sv}a{sv}", SD_BUS_PARAM(trigger) SD_BUS_PARAM(options), "aa{sv}", SD_BUS_PARAM(dates)),
    CHIME_DBUS_M("SetCategories", "aa{sv}", SD_BUS_PARAM(categories), "", ""),
    CHIME_DBUS_M("GetCategories", "", "", "aa{sv}", SD_BUS_PARAM(categories)),
    CHIME_DBUS_M("RequestAuthorization", "as", SD_BUS_PARAM(options), "ba{sv}", SD_BUS_PARAM(granted) SD_BUS_PARAM(settings)),
    CHIME_DBUS_M("GetSettings", "", "", "a{sv}", SD_BUS_PARAM(settings)),
    CHIME_DBUS_M("SetBadgeCount", "i", SD_BUS_PARAM(count), "", ""),
    CHIME_DBUS_M("Respond", "ssa{sv}", SD_BUS_PARAM(notification) SD_BUS_PARAM(action) SD_BUS_PARAM(options), "a{sv}", SD_BUS_PARAM(result)),
    CHIME_DBUS_M("Push", "sa{sv}", SD_BUS_PARAM(payload_json) SD_BUS_PARAM(options), "a{sv}", SD_BUS_PARAM(result)),
    CHIME_DBUS_M("GetDoNotDisturb", "a{sv}", SD_BUS_PARAM(options), "a{sv}", SD_BUS_PARAM(state)),
    CHIME_DBUS_M("SetDoNotDisturb", "a{sv}", SD_BUS_PARAM(change), "a{sv}", SD_BUS_PARAM(state)),
    CHIME_DBUS_M("Snooze", "sua{sv}", SD_BUS_PARAM(notification) SD_BUS_PARAM(seconds) SD_BUS_PARAM(options), "a{sv}",
                 SD_BUS_PARAM(snoozed)),
    CHIME_DBUS_M("AddCalendar", "ssa{sv}", SD_BUS_PARAM(name) SD_BUS_PARAM(path) SD_BUS_PARAM(options), "a{sv}", SD_BUS_PARAM(calendar)),
    CHIME_DBUS_M("ListCalendars", "a{sv}", SD_BUS_PARAM(options), "aa{sv}", SD_BUS_PARAM(calendars)),
    CHIME_DBUS_M("RemoveCalendar", "sa{sv}", SD_BUS_PARAM(name) SD_BUS_PARAM(options), "u", SD_BUS_PARAM(withdrawn_alarms)),
    CHIME_DBUS_M("SyncCalendars", "sa{sv}", SD_BUS_PARAM(name) SD_BUS_PARAM(options), "aa{sv}", SD_BUS_PARAM(calendars)),
    CHIME_DBUS_M("ListApps", "a{sv}", SD_BUS_PARAM(options), "aa{sv}", SD_BUS_PARAM(apps)),
    CHIME_DBUS_M("SetAppSettings", "sa{sv}a{sv}", SD_BUS_PARAM(app) SD_BUS_PARAM(change) SD_BUS_PARAM(options), "a{sv}",
                 SD_BUS_PARAM(settings)),
    SD_BUS_SIGNAL_WITH_NAMES("Delivered", "sa{sv}", SD_BUS_PARAM(identifier) SD_BUS_PARAM(notification), 0),
    SD_BUS_SIGNAL_WITH_NAMES("Response", "ssa{sv}", SD_BUS_PARAM(identifier) SD_BUS_PARAM(action) SD_BUS_PARAM(details), 0),
    SD_BUS_SIGNAL_WITH_NAMES("PendingRemoved", "as", SD_BUS_PARAM(identifiers), 0),
    SD_BUS_SIGNAL_WITH_NAMES("BadgeChanged", "i", SD_BUS_PARAM(count), 0),
    SD_BUS_SIGNAL_WITH_NAMES("RingEnded", "ss", SD_BUS_PARAM(identifier) SD_BUS_PARAM(why), 0),
    SD_BUS_SIGNAL_WITH_NAMES("AuthorizationChanged", "s", SD_BUS_PARAM(status), 0),
    SD_BUS_SIGNAL_WITH_NAMES("PendingAdded", "sa{sv}", SD_BUS_PARAM(identifier) SD_BUS_PARAM(request), 0),
    SD_BUS_SIGNAL_WITH_NAMES("DeliveredRemoved", "as", SD_BUS_PARAM(identifiers), 0),
    SD_BUS_PROPERTY("Version", "s", chime_dbus_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END
  };
  return vtable;
}

// An error reply with a name and message (sd_bus_reply_method_errorf is variadic).
static inline int chime_dbus_reply_error(sd_bus_message *call, const char *name, const char *message) {
  sd_bus_error e = SD_BUS_ERROR_MAKE_CONST(name, message);
  return sd_bus_reply_method_error(call, &e);
}
