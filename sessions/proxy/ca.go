package proxy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"framescope/sessions"
)

// ConfigDirEnv overrides the directory the CA lives in ($FRAMESCOPE_CONFIG_DIR/ca).
const ConfigDirEnv = "FRAMESCOPE_CONFIG_DIR"

// CA file names in the CA directory: the certificate (public, to install
// on devices) and its private key (0600, never printed, never copied).
const (
	CACertFile = "framescope-ca.pem"
	CAKeyFile  = "framescope-ca-key.pem"
)

// CADir is where the CA lives: $FRAMESCOPE_CONFIG_DIR/ca, else the user's
// config directory (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on
// Linux, ~/Library/Application Support on macOS, %AppData% on Windows)
// /framescope/ca.
func CADir() (string, error) {
	if d := os.Getenv(ConfigDirEnv); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", fmt.Errorf("%s: %w", ConfigDirEnv, err)
		}
		return filepath.Join(abs, "ca"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("certificate authority: %w (set %s to choose a directory)", err, ConfigDirEnv)
	}
	return filepath.Join(d, "framescope", "ca"), nil
}

// CA is framescope's local certificate authority: it signs a leaf
// certificate for each host --mitm decrypts, made on first use and cached.
type CA struct {
	Dir      string
	CertPath string
	cert     *x509.Certificate
	certDER  []byte
	key      *ecdsa.PrivateKey

	mu     sync.Mutex
	leaves map[string]*tls.Certificate
	// leafKey is shared by every leaf: generating a key per host costs
	// more than the TLS handshake it serves, and the leaves live only in
	// this process.
	leafKey *ecdsa.PrivateKey
}

// LoadOrCreateCA opens the CA in dir, creating it first when dir has none
// (the directory 0700, the key 0600). A key file that others can read is
// refused: it would let them impersonate any site to whoever trusts the CA.
func LoadOrCreateCA(dir string) (ca *CA, created bool, err error) {
	certPath, keyPath := filepath.Join(dir, CACertFile), filepath.Join(dir, CAKeyFile)
	if err := checkCADir(dir); err != nil {
		return nil, false, err
	}
	if _, err := os.Stat(keyPath); errors.Is(err, fs.ErrNotExist) {
		if err := createCA(dir, certPath, keyPath); err != nil {
			return nil, false, err
		}
		created = true
	}
	ca, err = loadCA(dir, certPath, keyPath)
	return ca, created, err
}

func createCA(dir, certPath, keyPath string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("certificate authority: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("certificate authority: %w", err)
	}
	host, _ := os.Hostname()
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: randomSerial(),
		Subject: pkix.Name{
			CommonName:   "framescope proxy CA (" + sessions.CleanShort(host, 40) + ")",
			Organization: []string{"framescope local CA"},
		},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("certificate authority: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fmt.Errorf("certificate authority: %w", err)
	}
	// The key is created exclusively: two proxies starting at once make
	// one CA, and the loser reads the winner's.
	kf, err := os.OpenFile(keyPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("certificate authority: %w", err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	err = writeExclusive(dir, certPath, certPEM, 0o644)
	if err == nil {
		err = pem.Encode(kf, &pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	}
	if cerr := kf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(keyPath)
		return fmt.Errorf("certificate authority: %w", err)
	}
	return nil
}

func loadCA(dir, certPath, keyPath string) (*CA, error) {
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(keyPath)
		if err != nil {
			return nil, fmt.Errorf("certificate authority: %w", err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("certificate authority: %s can be read by other users (mode %v): chmod 600 it, or remove the CA directory to make a new one",
				sessions.Clean(keyPath), fi.Mode().Perm())
		}
	}
	var pair tls.Certificate
	var err error
	for range 50 { // another process may be between writing the key and the certificate
		pair, err = tls.LoadX509KeyPair(certPath, keyPath)
		if err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		return nil, fmt.Errorf("certificate authority in %s: %w", sessions.Clean(dir), err)
	}
	key, ok := pair.PrivateKey.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("certificate authority in %s: the key is not ECDSA", sessions.Clean(dir))
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, fmt.Errorf("certificate authority in %s: %w", sessions.Clean(dir), err)
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return &CA{Dir: dir, CertPath: certPath, cert: cert, certDER: pair.Certificate[0], key: key,
		leaves: map[string]*tls.Certificate{}, leafKey: leafKey}, nil
}

// CertPEM is the CA certificate, PEM-encoded (public: what devices trust).
func (ca *CA) CertPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.certDER})
}

// maxLeaves bounds the leaf cache: past it, the cache starts over.
const maxLeaves = 4096

// Leaf returns the certificate for host (a name or an IP), made on first
// use and cached. Its validity stays under the 398 days browsers and
// Apple platforms accept for a TLS server certificate.
func (ca *CA) Leaf(host string) (*tls.Certificate, error) {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if c, ok := ca.leaves[host]; ok {
		return c, nil
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: randomSerial(),
		Subject:      pkix.Name{CommonName: host, Organization: []string{"framescope proxy"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(0, 0, 390),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &ca.leafKey.PublicKey, ca.key)
	if err != nil {
		return nil, fmt.Errorf("certificate for %s: %w", sessions.CleanShort(host, 80), err)
	}
	c := &tls.Certificate{Certificate: [][]byte{der, ca.certDER}, PrivateKey: ca.leafKey}
	if len(ca.leaves) >= maxLeaves {
		clear(ca.leaves)
	}
	ca.leaves[host] = c
	return c, nil
}

func randomSerial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n.Add(n, big.NewInt(1))
}
