// Step 2 of regenerate.sh: builds and signs an OCSP response about the vector's person with Bouncy Castle only
// (independent of jkurwa/gost89 and of KPI ID's TypeScript): its BasicOCSPRespBuilder and OCSPRespBuilder for
// the structures, its CertificateID (SHA-1, RFC 6960's hashes of the issuer's name and key) or a CertID of
// GOST 34.311 (GOST3411Digest, DSTU default S-box) with the issuer's key id, and its own
// GOST3411WITHDSTU4145LE signature (its JCA provider) as the builder's ContentSigner.
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Security;
import java.security.Signature;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;

import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.ocsp.CertID;
import org.bouncycastle.asn1.ua.DSTU4145NamedCurves;
import org.bouncycastle.asn1.ua.DSTU4145Params;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.ocsp.BasicOCSPResp;
import org.bouncycastle.cert.ocsp.BasicOCSPRespBuilder;
import org.bouncycastle.cert.ocsp.CertificateID;
import org.bouncycastle.cert.ocsp.CertificateStatus;
import org.bouncycastle.cert.ocsp.OCSPRespBuilder;
import org.bouncycastle.cert.ocsp.RespID;
import org.bouncycastle.cert.ocsp.RevokedStatus;
import org.bouncycastle.crypto.digests.GOST3411Digest;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECParameterSpec;
import org.bouncycastle.jce.spec.ECPrivateKeySpec;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

public class DiiaOcsp {
  static final String CURVE_257 = "1.2.804.2.1.1.1.1.3.1.1.2.6";
  static final ASN1ObjectIdentifier DSTU4145LE = new ASN1ObjectIdentifier("1.2.804.2.1.1.1.1.3.1.1");
  static final ASN1ObjectIdentifier GOST34311 = new ASN1ObjectIdentifier("1.2.804.2.1.1.1.1.2.1");
  // The answers' times (vectors.ts): thisUpdate 2029-12-31, nextUpdate 2030-01-02, revoked on 2029-12-01.
  static final Date THIS_UPDATE = new Date(1893369600000L);
  static final Date NEXT_UPDATE = new Date(1893542400000L);
  static final Date REVOKED_AT = new Date(1890777600000L);

  static byte[] gost34311(byte[] data) {
    byte[] compressed = DSTU4145Params.getDefaultDKE();
    byte[] sbox = new byte[128];
    for (int i = 0; i < compressed.length; i++) {
      sbox[i * 2] = (byte) ((compressed[i] >> 4) & 0xf);
      sbox[i * 2 + 1] = (byte) (compressed[i] & 0xf);
    }
    GOST3411Digest digest = new GOST3411Digest(sbox);
    digest.update(data, 0, data.length);
    byte[] out = new byte[32];
    digest.doFinal(out, 0);
    return out;
  }

  static PrivateKey key(Path file) throws Exception {
    BigInteger d = new BigInteger(1, HexFormat.of().parseHex(Files.readString(file).trim()));
    ECDomainParameters curve = DSTU4145NamedCurves.getByOID(new ASN1ObjectIdentifier(CURVE_257));
    // jkurwa draws d below 2^m, not below n; d mod n is the same key (G has order n), as Bouncy Castle wants it.
    return KeyFactory.getInstance("DSTU4145", "BC").generatePrivate(new ECPrivateKeySpec(d.mod(curve.getN()),
      new ECParameterSpec(curve.getCurve(), curve.getG(), curve.getN(), curve.getH())));
  }

  /** The CertID Ukrainian responders use: GOST 34.311 of the issuer's name, the issuer's key id, the serial. */
  static CertificateID gostKeyIdCertId(X509CertificateHolder signer) throws Exception {
    byte[] keyId = AuthorityKeyIdentifier.fromExtensions(signer.getExtensions()).getKeyIdentifier();
    return new CertificateID(new CertID(new AlgorithmIdentifier(GOST34311),
      new DEROctetString(gost34311(signer.getIssuer().getEncoded())), new DEROctetString(keyId),
      new ASN1Integer(signer.getSerialNumber())));
  }

  /**
   * Bouncy Castle's own GOST3411WITHDSTU4145LE signature (its JCA provider) as the builder's ContentSigner; its
   * operator registry (1.72) has no name for the algorithm, so the identifier is given here. The provider's
   * output is the OCTET STRING wrapping r||s that Ukrainian signatures carry in the BIT STRING.
   */
  static ContentSigner dstuSigner(PrivateKey key) throws Exception {
    Signature signature = Signature.getInstance("GOST3411WITHDSTU4145LE", "BC");
    signature.initSign(key);
    ByteArrayOutputStream signed = new ByteArrayOutputStream();
    return new ContentSigner() {
      public AlgorithmIdentifier getAlgorithmIdentifier() {
        return new AlgorithmIdentifier(DSTU4145LE);
      }

      public OutputStream getOutputStream() {
        return signed;
      }

      public byte[] getSignature() {
        try {
          signature.update(signed.toByteArray());
          return signature.sign();
        } catch (Exception error) {
          throw new IllegalStateException(error);
        }
      }
    };
  }

  public static void main(String[] args) throws Exception {
    Security.addProvider(new BouncyCastleProvider());
    Path dir = Path.of(args[0]);
    String[] vector = Files.readString(dir.resolve(".work-vector.txt")).trim().split(" ");
    boolean revoked = vector[0].equals("revoked");
    boolean delegated = vector[1].equals("delegated");
    X509CertificateHolder ca = new X509CertificateHolder(Files.readAllBytes(dir.resolve(".work-ca.der")));
    X509CertificateHolder signer = new X509CertificateHolder(Files.readAllBytes(dir.resolve(".work-signer.der")));
    X509CertificateHolder responder = new X509CertificateHolder(Files.readAllBytes(dir.resolve(".work-responder.der")));

    CertificateID id = vector[2].equals("sha1")
      ? new CertificateID(new JcaDigestCalculatorProviderBuilder().setProvider("BC").build().get(CertificateID.HASH_SHA1),
          ca, signer.getSerialNumber())
      : gostKeyIdCertId(signer);
    CertificateStatus status = revoked ? new RevokedStatus(REVOKED_AT, CRLReason.keyCompromise) : CertificateStatus.GOOD;
    BasicOCSPRespBuilder builder = new BasicOCSPRespBuilder(new RespID((delegated ? responder : ca).getSubject()));
    builder.addResponse(id, status, THIS_UPDATE, NEXT_UPDATE, null);
    ContentSigner contentSigner = dstuSigner(key(dir.resolve(".work-key-d.hex")));
    X509CertificateHolder[] chain = delegated ? new X509CertificateHolder[] {responder} : null;
    BasicOCSPResp basic = builder.build(contentSigner, chain, THIS_UPDATE);
    byte[] response = new OCSPRespBuilder().build(OCSPRespBuilder.SUCCESSFUL, basic).getEncoded();
    Files.writeString(dir.resolve("response.b64"), Base64.getMimeEncoder(76, "\n".getBytes()).encodeToString(response) + "\n");
  }
}
