package main

import (
	"context"
	"reflect"
	"sort"
	"testing"
	"time"

	chimev1 "chime/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// TestEveryMethodThroughTheGoStub calls every method of chime.v1.NotificationCenter with the
// generated Go stub against a real chimed: each unary call is answered, or refused by the
// service with Chime's reason in an ErrorInfo (never UNIMPLEMENTED, INTERNAL or UNAVAILABLE,
// which would mean it was not routed), and both streams deliver their first event. A method
// added to Protos/ and not called here fails the test.
func TestEveryMethodThroughTheGoStub(t *testing.T) {
	socket := startChimed(t)
	base, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const app = "org.example.gostub"
	ctx := metadata.AppendToOutgoingContext(base, "chime-app", app)
	conn, err := grpc.DialContext(ctx, "unix://"+socket, grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	chime := chimev1.NewNotificationCenterClient(conn)
	called := map[string]bool{}

	// answered: the call succeeded, or the service refused it with a reason of its own.
	answered := func(method string, err error) {
		t.Helper()
		called[method] = true
		if err == nil {
			return
		}
		switch status.Code(err) {
		case codes.Unimplemented, codes.Internal, codes.Unavailable, codes.DeadlineExceeded:
			t.Errorf("%s: %v", method, err)
			return
		}
		if _, why, _ := reason(err); why == "" {
			t.Errorf("%s: refused without a chime ErrorInfo: %v", method, err)
		}
	}
	must := func(method string, err error) {
		t.Helper()
		called[method] = true
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}

	events, err := chime.Subscribe(ctx, &chimev1.SubscribeRequest{})
	must("Subscribe", err)
	if event, err := events.Recv(); err != nil || event.Kind != chimev1.EventKind_EVENT_KIND_SUBSCRIBED {
		t.Fatalf("Subscribe: first event %v, %v", event, err)
	}
	_, err = chime.RequestAuthorization(ctx, &chimev1.AuthorizationRequest{Alert: true, Sound: true, Badge: true})
	must("RequestAuthorization", err)
	added, err := chime.Add(ctx, interval("tea", "Tea", 600, false))
	must("Add", err)
	if added.Pending.Request.Identifier != "tea" {
		t.Errorf("Add stored %v", added.Pending)
	}
	pending, err := chime.GetPending(ctx, &chimev1.PageRequest{})
	must("GetPending", err)
	if len(pending.Requests) != 1 {
		t.Errorf("GetPending: %v", pending.Requests)
	}
	_, err = chime.RemovePending(ctx, &chimev1.IdentifiersRequest{Identifiers: []string{"tea"}})
	must("RemovePending", err)
	_, err = chime.RemoveAllPending(ctx, &chimev1.Empty{})
	must("RemoveAllPending", err)
	_, err = chime.GetDelivered(ctx, &chimev1.PageRequest{})
	must("GetDelivered", err)
	_, err = chime.RemoveDelivered(ctx, &chimev1.IdentifiersRequest{Identifiers: []string{"none"}})
	must("RemoveDelivered", err)
	_, err = chime.RemoveAllDelivered(ctx, &chimev1.Empty{})
	must("RemoveAllDelivered", err)
	dates, err := chime.NextTriggerDates(ctx, &chimev1.NextTriggerDatesRequest{
		Trigger: interval("x", "", 60, true).Request.Trigger, AfterUnixMs: 1_000_000, Count: 2})
	must("NextTriggerDates", err)
	if len(dates.GetDates()) != 2 || dates.Dates[0].UnixMs != 1_060_000 {
		t.Errorf("NextTriggerDates: %v", dates.GetDates())
	}
	_, err = chime.SetCategories(ctx, &chimev1.SetCategoriesRequest{Categories: []*chimev1.Category{{Identifier: "invite"}}})
	must("SetCategories", err)
	categories, err := chime.GetCategories(ctx, &chimev1.Empty{})
	must("GetCategories", err)
	if len(categories.GetCategories()) != 1 {
		t.Errorf("GetCategories: %v", categories.GetCategories())
	}
	pushed, err := chime.Push(ctx, &chimev1.PushRequest{Payload: []byte(`{"aps": {"alert": {"title": "Hi"}}}`), Identifier: "p1"})
	must("Push", err)
	if pushed.GetDelivered().GetRequest().GetIdentifier() != "p1" {
		t.Errorf("Push delivered %v", pushed.GetDelivered())
	}
	_, err = chime.Push(ctx, &chimev1.PushRequest{Payload: []byte(`{"aps": {"alert": {"title": "Later"}}}`), Identifier: "p2"})
	must("Push", err)
	snoozed, err := chime.Snooze(ctx, &chimev1.SnoozeRequest{NotificationIdentifier: "p2", DurationSeconds: 600})
	must("Snooze", err)
	if snoozed.GetSnoozed().GetSnoozeCount() != 1 {
		t.Errorf("Snooze: %v", snoozed.GetSnoozed())
	}
	_, err = chime.Respond(ctx, &chimev1.RespondRequest{Response: &chimev1.NotificationResponse{
		NotificationIdentifier: "p1", ActionIdentifier: "chime.default"}})
	must("Respond", err)
	_, err = chime.SetBadgeCount(ctx, &chimev1.SetBadgeCountRequest{Count: 3})
	must("SetBadgeCount", err)
	settings, err := chime.GetSettings(ctx, &chimev1.Empty{})
	must("GetSettings", err)
	if settings.GetBadgeCount() != 3 {
		t.Errorf("GetSettings: badge %d", settings.GetBadgeCount())
	}
	_, err = chime.SetAppSettings(ctx, &chimev1.AppSettingsRequest{AppId: app})
	must("SetAppSettings", err)
	state, err := chime.SetDoNotDisturb(ctx, &chimev1.SetDoNotDisturbRequest{ManualSet: &chimev1.SetDoNotDisturbRequest_ManualOn{ManualOn: true}})
	must("SetDoNotDisturb", err)
	if !state.GetActive() || state.GetSource() != chimev1.DoNotDisturbSource_DO_NOT_DISTURB_SOURCE_MANUAL {
		t.Errorf("SetDoNotDisturb: %v", state)
	}
	_, err = chime.SetDoNotDisturb(ctx, &chimev1.SetDoNotDisturbRequest{ManualSet: &chimev1.SetDoNotDisturbRequest_ManualOn{ManualOn: false}})
	must("SetDoNotDisturb", err)
	state, err = chime.GetDoNotDisturb(ctx, &chimev1.Empty{})
	must("GetDoNotDisturb", err)
	if state.GetActive() {
		t.Errorf("GetDoNotDisturb after off: %v", state)
	}
	_, err = chime.RegisterApp(ctx, &chimev1.RegisterAppRequest{})
	must("RegisterApp", err)
	layout, err := chime.GetApp(ctx, &chimev1.Empty{})
	must("GetApp", err)
	if layout.GetAppId() != app {
		t.Errorf("GetApp: %v", layout)
	}
	_, err = chime.ListApps(ctx, &chimev1.Empty{})
	must("ListApps", err)
	known, err := chime.ListKnownApps(ctx, &chimev1.Empty{})
	must("ListKnownApps", err)
	if len(known.GetApps()) == 0 {
		t.Errorf("ListKnownApps: %v", known)
	}
	_, err = chime.CheckSound(ctx, &chimev1.CheckSoundRequest{Name: "missing.wav"})
	must("CheckSound", err)
	info, err := chime.GetServerInfo(ctx, &chimev1.Empty{})
	must("GetServerInfo", err)
	if info.GetSocketPath() != socket {
		t.Errorf("GetServerInfo: socket %q", info.GetSocketPath())
	}

	extension, err := chime.RegisterExtension(ctx, &chimev1.RegisterExtensionRequest{ExtensionIdentifier: "ext",
		CategoryIdentifiers: []string{"invite"}, Attributes: &chimev1.ExtensionAttributes{
			Ratio: &chimev1.ExtensionAttributes_InitialContentSizeRatio{InitialContentSizeRatio: 0.5}}})
	must("RegisterExtension", err)
	if event, err := extension.Recv(); err != nil || !event.Registered {
		t.Fatalf("RegisterExtension: first event %v, %v", event, err)
	}
	// Calls that need a response, a media notification or a service request the app does not
	// have: refused by the service, with its reason.
	_, err = chime.AnswerResponse(ctx, &chimev1.AnswerResponseRequest{ExtensionIdentifier: "ext", ResponseId: 1})
	answered("AnswerResponse", err)
	_, err = chime.PressMediaButton(ctx, &chimev1.PressMediaButtonRequest{NotificationIdentifier: "nope",
		Command: chimev1.MediaCommand_MEDIA_COMMAND_PLAY})
	answered("PressMediaButton", err)
	_, err = chime.ReportMediaPlayback(ctx, &chimev1.ReportMediaPlaybackRequest{ExtensionIdentifier: "ext",
		NotificationIdentifier: "nope", Playback: chimev1.MediaPlayback_MEDIA_PLAYBACK_PLAYING})
	answered("ReportMediaPlayback", err)
	_, err = chime.AnswerService(ctx, &chimev1.AnswerServiceRequest{ExtensionIdentifier: "ext", RequestId: 1})
	answered("AnswerService", err)

	// The user's calendars: an empty vdir registered, listed, rescanned and removed.
	source, err := chime.AddCalendar(ctx, &chimev1.AddCalendarRequest{Name: "gostub", Path: t.TempDir()})
	must("AddCalendar", err)
	if source.GetAppId() != "io.github.chime.calendar.gostub" {
		t.Errorf("AddCalendar: %v", source)
	}
	calendars, err := chime.ListCalendars(ctx, &chimev1.Empty{})
	must("ListCalendars", err)
	if len(calendars.GetCalendars()) != 1 || calendars.GetCalendars()[0].GetName() != "gostub" {
		t.Errorf("ListCalendars: %v", calendars)
	}
	_, err = chime.SyncCalendars(ctx, &chimev1.SyncCalendarsRequest{Name: "gostub"})
	must("SyncCalendars", err)
	_, err = chime.RemoveCalendar(ctx, &chimev1.RemoveCalendarRequest{Name: "gostub"})
	must("RemoveCalendar", err)

	var missing []string
	service := reflect.TypeOf((*chimev1.NotificationCenterClient)(nil)).Elem()
	for i := 0; i < service.NumMethod(); i++ {
		if name := service.Method(i).Name; !called[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("methods this test does not call: %v", missing)
	}
}
