package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/sessions/proxy"
)

// proxyCAOptions are proxy ca's streams.
type proxyCAOptions struct {
	ioStreams
}

// newProxyCACmd is proxy ca; runF (proxyCARun unless a test gives one)
// does the work.
func newProxyCACmd(env Env, runF func(*proxyCAOptions) error) *cobra.Command {
	o := &proxyCAOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = proxyCARun
	}
	return &cobra.Command{
		Use:   "ca",
		Short: "Print where framescope's certificate authority is (made on first use) and how to trust it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(o)
		},
	}
}

// proxyCARun prints where the CA is (made on first use) and how to trust
// it.
func proxyCARun(o *proxyCAOptions) error {
	dir, err := proxy.CADir()
	if err != nil {
		return err
	}
	ca, created, err := proxy.LoadOrCreateCA(dir)
	if err != nil {
		return err
	}
	cert := decode.Sanitize(ca.CertPath)
	state := "framescope's certificate authority"
	if created {
		state = "created framescope's certificate authority"
	}
	fmt.Fprintf(o.stdout, `%s: %s
(its private key is beside it, readable by you only; it never leaves that file.
Trust the CA only on devices you test with; remove it when done.)

  curl:          curl --cacert %[2]s --proxy http://127.0.0.1:7071 https://…
  Node.js:       NODE_EXTRA_CA_CERTS=%[2]s
  Python:        SSL_CERT_FILE=%[2]s  (requests: REQUESTS_CA_BUNDLE=%[2]s)
  macOS:         sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain %[2]s
  iOS Simulator: xcrun simctl keychain booted add-root-cert %[2]s
  Android emulator: adb push %[2]s /sdcard/Download/ and install it in Settings › Security › Encryption
                 & credentials › Install a certificate › CA certificate (an app trusts user CAs only
                 when its network_security_config says so: <certificates src="user"/> in debug builds);
                 set the proxy with: adb shell settings put global http_proxy 10.0.2.2:7071
Then: framescope proxy --mitm  (HTTPS_PROXY=http://127.0.0.1:7071)
`, state, cert)
	return nil
}
