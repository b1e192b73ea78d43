// tea calls chimed over gRPC: adds a request, lists what is pending, sees a delivery on a
// subscription and reads a refusal's reason from its google.rpc.ErrorInfo.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	chimev1 "chime/v1"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// socketPath finds chimed as chimed does: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock.
func socketPath() string {
	if path := os.Getenv("CHIME_SOCKET"); path != "" {
		return path
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return filepath.Join(dir, "chime", "chimed.sock")
	}
	return fmt.Sprintf("/tmp/chime-%d/chimed.sock", os.Getuid())
}

// reason is Chime's reason and field for a refusal: the ErrorInfo of domain "chime" in the
// status details (the grpc-status-details-bin trailer).
func reason(err error) (code, why, field string) {
	st := status.Convert(err)
	for _, detail := range st.Details() {
		if info, ok := detail.(*errdetails.ErrorInfo); ok && info.Domain == "chime" {
			return st.Code().String(), info.Reason, info.Metadata["field"]
		}
	}
	return st.Code().String(), "", ""
}

func interval(id, title string, seconds float64, repeats bool) *chimev1.AddRequest {
	return &chimev1.AddRequest{Request: &chimev1.NotificationRequest{
		Identifier: id,
		Content:    &chimev1.NotificationContent{Title: title},
		Trigger: &chimev1.Trigger{Kind: &chimev1.Trigger_TimeInterval{
			TimeInterval: &chimev1.TimeIntervalTrigger{Seconds: seconds, Repeats: repeats}}},
	}}
}

func run(out io.Writer, socket, app string) error {
	// Every call carries the app id in the chime-app metadata and a deadline of 10 s.
	ctx := metadata.AppendToOutgoingContext(context.Background(), "chime-app", app)
	dial, cancelDial := context.WithTimeout(ctx, 10*time.Second)
	defer cancelDial()
	conn, err := grpc.DialContext(dial, "unix://"+socket, grpc.WithInsecure(), grpc.WithBlock(),
		grpc.FailOnNonTempDialError(true))
	if err != nil {
		return fmt.Errorf("cannot connect to chimed at %s: %w", socket, err)
	}
	defer conn.Close()
	chime := chimev1.NewNotificationCenterClient(conn)
	call, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()

	// Tea in 10 minutes.
	added, err := chime.Add(call, interval("tea", "Tea", 600, false))
	if err != nil {
		return err
	}
	fireAt := time.UnixMilli(added.Pending.NextFireUnixMs).UTC()
	fmt.Fprintln(out, "tea at", fireAt.Format(time.RFC3339))

	pending, err := chime.GetPending(call, &chimev1.PageRequest{})
	if err != nil {
		return err
	}
	for _, p := range pending.Requests {
		fmt.Fprintf(out, "pending %s: %s\n", p.Request.Identifier, p.Request.Content.Title)
	}

	// Refusals carry a status code, and Chime's reason and field in an ErrorInfo.
	if _, err := chime.Add(call, interval("stretch", "Stretch", 30, true)); err != nil {
		code, why, field := reason(err)
		fmt.Fprintln(out, "refused:", code, why, field)
	}

	// Events as they happen: SUBSCRIBED once live, then a request without a trigger is
	// delivered at once.
	events, err := chime.Subscribe(call, &chimev1.SubscribeRequest{})
	if err != nil {
		return err
	}
	for delivered := false; !delivered; {
		event, err := events.Recv()
		if err != nil {
			return err
		}
		switch event.Kind {
		case chimev1.EventKind_EVENT_KIND_SUBSCRIBED:
			hello := &chimev1.NotificationRequest{Identifier: "hello",
				Content: &chimev1.NotificationContent{Title: "Hello", Body: "from Go"}}
			if _, err := chime.Add(call, &chimev1.AddRequest{Request: hello}); err != nil {
				return err
			}
		case chimev1.EventKind_EVENT_KIND_DELIVERED:
			fmt.Fprintln(out, "delivered", event.Delivered.Request.Identifier, "cursor", event.Cursor)
			delivered = true
		}
	}

	removed, err := chime.RemoveAllPending(call, &chimev1.Empty{})
	if err != nil {
		return err
	}
	sort.Strings(removed.Removed)
	fmt.Fprintln(out, "removed", removed.Removed)
	return nil
}

func main() {
	if err := run(os.Stdout, socketPath(), "org.example.tea"); err != nil {
		code, why, _ := reason(err)
		fmt.Fprintln(os.Stderr, "tea:", code, why, err)
		os.Exit(1)
	}
}
