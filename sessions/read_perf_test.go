package sessions

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"testing"
	"time"
)

func TestPerfTmp(t *testing.T) {
	path := os.Getenv("PERF_FILE")
	if path == "" {
		t.Skip()
	}
	start := time.Now()
	c, err := Open(path, OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	n, np := 0, 0
	for {
		ch, err := c.Next()
		if err == io.EOF {
			break
		}
		n += len(ch.Data)
		np += len(c.TakeProblems())
	}
	t.Logf("%s: %d bytes, %d problems, %v, end %+v", c.Meta().Kind, n, np, time.Since(start), c.End())
}

func TestPerfGen(t *testing.T) {
	out := os.Getenv("PERF_GEN")
	if out == "" {
		t.Skip()
	}
	f, _ := os.Create(out + ".sse")
	g, _ := os.Create(out + ".jsonl")
	w := bufio.NewWriter(f)
	v := bufio.NewWriter(g)
	v.WriteString(jsonlHeader + "\n")
	block := "event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"response_id\":\"resp_big\",\"chunk\":\"lorem ipsum dolor sit amet\"}\n\n"
	line, _ := json.Marshal(map[string]any{"t": 1.0, "data": block})
	for i := 0; i < 300<<20/len(block); i++ {
		w.WriteString(block)
		v.Write(line)
		v.WriteString("\n")
	}
	v.WriteString(`{"t":2,"end":"eof"}` + "\n")
	w.Flush()
	v.Flush()
	f.Close()
	g.Close()
}
