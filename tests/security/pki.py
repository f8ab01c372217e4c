"""A throw-away PKI for the TLS tests: a CA, a server cert for 127.0.0.1/localhost, client certs.

Built with the ``cryptography`` package into a temporary directory; nothing is
kept. EC P-256 keys keep generation fast.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclass(frozen=True)
class Pair:
    cert: Path
    key: Path


@dataclass(frozen=True)
class Pki:
    ca: Path
    server: Pair
    client: Pair
    rogue_ca: Path       # an unrelated CA
    rogue_client: Pair   # a client cert signed by the unrelated CA
    ca_key: Path         # to issue more client certs (issue_client)


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _builder(subject: str, issuer: x509.Name, public_key) -> x509.CertificateBuilder:  # type: ignore[no-untyped-def]
    now = dt.datetime.now(dt.timezone.utc)
    return (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(issuer).public_key(public_key)
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1)))


def _ca(directory: Path, name: str) -> tuple[Path, ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (_builder(name, _name(name), key.public_key())
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
            .sign(key, hashes.SHA256()))
    return _write(directory / f"{name}.pem", cert.public_bytes(serialization.Encoding.PEM)), key, cert


def _leaf(directory: Path, name: str, ca_key,  # type: ignore[no-untyped-def]
          ca_cert: x509.Certificate, server: bool) -> Pair:
    key = ec.generate_private_key(ec.SECP256R1())
    builder = _builder(name, ca_cert.subject, key.public_key()).add_extension(
        x509.BasicConstraints(ca=False, path_length=None), critical=True)
    if server:
        builder = builder.add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
    usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
    cert = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False).sign(ca_key, hashes.SHA256())
    return Pair(cert=_write(directory / f"{name}.pem", cert.public_bytes(serialization.Encoding.PEM)),
                key=_write(directory / f"{name}.key", _key_pem(key)))


def make_pki(directory: Path) -> Pki:
    ca_path, ca_key, ca_cert = _ca(directory, "test-ca")
    rogue_path, rogue_key, rogue_cert = _ca(directory, "rogue-ca")
    return Pki(ca=ca_path, server=_leaf(directory, "server", ca_key, ca_cert, server=True),
               client=_leaf(directory, "client", ca_key, ca_cert, server=False), rogue_ca=rogue_path,
               rogue_client=_leaf(directory, "rogue-client", rogue_key, rogue_cert, server=False),
               ca_key=_write(directory / "test-ca.key", _key_pem(ca_key)))


def issue_client(pki: Pki, directory: Path, common_name: str) -> Pair:
    """Another client certificate from the same CA, for ``common_name``."""
    ca_cert = x509.load_pem_x509_certificate(pki.ca.read_bytes())
    ca_key = serialization.load_pem_private_key(pki.ca_key.read_bytes(), password=None)
    return _leaf(directory, common_name, ca_key, ca_cert, server=False)
