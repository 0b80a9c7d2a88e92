package decode

import (
	"reflect"
	"testing"
	"time"
)

// TestDecodeAtResetsEveryField: DecodeAt resets a reused frame field by
// field. A frame left dirty by a broken frame, then reused for a valid
// one (and the other way round), must equal a freshly decoded frame; and
// a new Frame field must be added to DecodeAt's reset (the field list
// below trips until it is).
func TestDecodeAtResetsEveryField(t *testing.T) {
	var fields []string
	ft := reflect.TypeOf(Frame{})
	for i := 0; i < ft.NumField(); i++ {
		fields = append(fields, ft.Field(i).Name)
	}
	want := []string{"Event", "Index", "Arrival", "HasArrival", "Done", "InvalidUTF8", "ASCII", "Problem", "problemErr",
		"Members", "keys", "idx", "scanned"}
	if !reflect.DeepEqual(fields, want) {
		t.Fatalf("Frame fields are %v; DecodeAt resets %v: reset the new field there, then update this list", fields, want)
	}
	blocks := []string{
		"data: x\n\n",
		`data: {"kind":"text","rev":"1","at":"t","id":"r","body":"hi"}` + "\n\n",
		"data: [DONE]\n\n",
		"data: [1,2]\n\n",
		"data: \xff{}\n\n",
		"data: {\"a\":tru}\n\n",
		"data:\n\n",
	}
	var evs []Event
	fr := NewFramer()
	for _, b := range blocks {
		fr.Feed([]byte(b), func(ev *Event) {
			if ev.Dispatched() {
				evs = append(evs, ev.Clone())
			}
		})
	}
	if len(evs) != len(blocks) {
		t.Fatalf("%d events from %d blocks", len(evs), len(blocks))
	}
	for i := range evs {
		for j := range evs {
			var reused Frame
			DecodeAt(&reused, &evs[i], testKeys, 7, time.Second, true)
			DecodeAt(&reused, &evs[j], testKeys, 3, 0, false)
			fresh := &Frame{Event: evs[j], Index: 3, keys: testKeys} // as DecodeFrame builds one
			fresh.decode()
			if len(reused.Members) == 0 {
				reused.Members = nil
			}
			if len(fresh.Members) == 0 {
				fresh.Members = nil
			}
			if !reflect.DeepEqual(&reused, fresh) {
				t.Errorf("block %q after %q:\n reused %+v\n fresh  %+v", blocks[j], blocks[i], reused, *fresh)
			}
		}
	}
}

// TestCopyFromCopiesEveryField: CopyFrom copies an event with every field
// set to a value of its own; a field added to Event and not to CopyFrom
// leaves a zero behind.
func TestCopyFromCopiesEveryField(t *testing.T) {
	var src Event
	v := reflect.ValueOf(&src).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int64, reflect.Int:
			f.SetInt(int64(i + 1))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString("s")
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.Uint8 {
				f.SetBytes([]byte{byte(i)})
			} else {
				f.Set(reflect.ValueOf([][]byte{{byte(i)}}))
			}
		default:
			t.Fatalf("field %s: kind %s not set by the test", v.Type().Field(i).Name, f.Kind())
		}
	}
	var dst Event
	dst.CopyFrom(&src)
	if !reflect.DeepEqual(dst, src) {
		t.Fatalf("CopyFrom lost a field:\n got  %+v\n want %+v", dst, src)
	}
}
