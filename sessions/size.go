package sessions

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a byte size: 1048576, 500KB, 64MiB, 1G, 2GiB (K, M, G
// and T are powers of 1024 with or without "iB"; KB, MB… powers of 1000).
// 0 means no limit.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	mult := map[string]float64{
		"": 1, "b": 1,
		"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
		"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
		"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
		"t": 1 << 40, "tib": 1 << 40, "tb": 1e12,
	}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("%q is not a size (want e.g. 500MB, 1GiB or 0 for no limit)", s)
	}
	if n := int64(v * mult); n > 0 || v == 0 {
		return n, nil
	}
	// 0.9 bytes would round to 0, which means no limit: the opposite of
	// what was asked.
	return 0, fmt.Errorf("%q is less than one byte (0 would mean no limit): give at least 1 byte, or 0 for no limit", s)
}

// FormatSize writes a byte count for people: 512 B, 1.5 KiB, 1 GiB.
func FormatSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, exp := float64(n)/unit, 0
	for v >= unit && exp < 3 {
		v /= unit
		exp++
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + " " + "KMGT"[exp:exp+1] + "iB"
}
