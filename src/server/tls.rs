//! TLS for the server and its clients: the server's self-signed certificate, made on
//! its first start and kept beside its database; the client's check of it, pinned on
//! first contact as SSH pins a host key.

use super::protocol::fingerprint;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The one crypto provider: ring's, which builds without cmake. rustls 0.23.48 marks it
/// deprecated for lacking post-quantum key exchange, which only aws-lc (cmake) has.
#[allow(deprecated)]
pub(crate) fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A client's TLS settings: the one provider, the safe protocol versions, and the
/// server's certificate checked by `verifier` (pinned, as SSH pins a host key).
pub(crate) fn client_config(verifier: Arc<Pinned>) -> Result<rustls::ClientConfig, rustls::Error> {
    Ok(rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

/// The server's certificate and key (DER): read from `cert` and `key`, or made and
/// written there if neither exists. Also says whether they were made now.
pub(crate) fn certificate(
    cert: &Path,
    key: &Path,
) -> Result<(CertificateDer<'static>, PrivateKeyDer<'static>, bool), String> {
    let said =
        |path: &Path, e: std::io::Error| format!("{}: {e}", crate::text::printable_path(path));
    if cert.exists() || key.exists() {
        let cert_der = std::fs::read(cert).map_err(|e| said(cert, e))?;
        let key_der = std::fs::read(key).map_err(|e| said(key, e))?;
        // A key an earlier version left readable by everyone is made private now.
        crate::store::files::keep_private(key);
        return Ok((
            CertificateDer::from(cert_der),
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key_der)),
            false,
        ));
    }
    let made = rcgen::generate_simple_self_signed(vec!["checkers".to_string()])
        .map_err(|e| format!("cannot make a certificate: {e}"))?;
    let key_der = made.signing_key.serialize_der();
    // The key first: a certificate without its key would be refused at the next start.
    // Whoever reads the key can pass for the server: only its owner may, from the
    // moment it is made.
    crate::store::files::write_private(key, &key_der).map_err(|e| said(key, e))?;
    crate::store::write_atomic(cert, made.cert.der()).map_err(|e| said(cert, e))?;
    Ok((
        made.cert.der().clone(),
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key_der)),
        true,
    ))
}

/// A certificate chain and its key from PEM files (`--cert`, `--key`), as a
/// certificate authority issues them: the server's certificate first, then the
/// intermediates.
pub(crate) fn certificate_from_pem(
    cert: &Path,
    key: &Path,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), String> {
    use rustls::pki_types::pem::PemObject;
    let read = |path: &Path| {
        std::fs::read(path)
            .map_err(|e| format!("{}: cannot read: {e}", crate::text::printable_path(path)))
    };
    let (cert_pem, key_pem) = (read(cert)?, read(key)?);
    let chain = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            format!(
                "{}: not a PEM certificate: {e}",
                crate::text::printable_path(cert)
            )
        })?;
    if chain.is_empty() {
        return Err(format!(
            "{}: no certificate in it (a PEM file has -----BEGIN CERTIFICATE-----)",
            crate::text::printable_path(cert)
        ));
    }
    let key_der = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| {
        format!(
            "{}: no private key in it ({e}; a PEM key has -----BEGIN PRIVATE KEY-----)",
            crate::text::printable_path(key)
        )
    })?;
    Ok((chain, key_der))
}

/// The server's TLS configuration for the certificate chain `chain` and its `key`.
pub(crate) fn server_config(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<rustls::ServerConfig, String> {
    rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| match e {
            rustls::Error::InconsistentKeys(_) => {
                "the key is not the certificate's (--key must be the private key of --cert)"
                    .to_string()
            }
            e => format!("the certificate and key do not serve: {e}"),
        })
}

/// A client's check of a server's certificate: no authority vouches for a
/// self-signed certificate, so what is checked is that it is the one pinned (when one
/// is), and that the server holds its key (the handshake's signatures). The
/// certificate seen is kept for the caller to pin or to name in a warning.
#[derive(Debug)]
pub(crate) struct Pinned {
    /// The fingerprint pinned for this server, if it was met before.
    pub(crate) expected: Option<[u8; 32]>,
    /// The fingerprint of the certificate the server presented.
    pub(crate) seen: Mutex<Option<[u8; 32]>>,
    /// The provider, for the handshake signatures.
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl Pinned {
    /// A check expecting `expected` (none: any, to be pinned after).
    pub(crate) fn new(expected: Option<[u8; 32]>) -> Pinned {
        Pinned {
            expected,
            seen: Mutex::new(None),
            provider: provider(),
        }
    }

    /// The fingerprint the server presented, once the handshake got that far.
    pub(crate) fn seen(&self) -> Option<[u8; 32]> {
        *self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let seen = fingerprint(end_entity);
        *self.seen.lock().unwrap_or_else(|e| e.into_inner()) = Some(seen);
        match self.expected {
            Some(expected) if expected != seen => Err(rustls::Error::General(
                "the server's certificate is not the one pinned".to_string(),
            )),
            _ => Ok(ServerCertVerified::assertion()),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
