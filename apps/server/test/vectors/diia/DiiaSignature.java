// Step 2 of regenerate.sh: signs the request id's hash as the Diia app does and wraps it in the CMS shape one
// vector folder asks for, with Bouncy Castle only (independent of jkurwa/gost89 and of KPI ID's TypeScript):
// GOST 34.311 (GOST3411Digest with the DSTU default S-box) for the messageDigest, Bouncy Castle's own
// GOST3411WITHDSTU4145LE signature (its JCA provider) over the DER of the signed attributes, and the
// SignedData, the certificates' order and the CAdES-X-Long unsigned attributes built with its ASN.1 classes.
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Security;
import java.security.Signature;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;

import org.bouncycastle.asn1.*;
import org.bouncycastle.asn1.ua.DSTU4145NamedCurves;
import org.bouncycastle.asn1.ua.DSTU4145Params;
import org.bouncycastle.asn1.x509.Certificate;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.crypto.digests.GOST3411Digest;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECParameterSpec;
import org.bouncycastle.jce.spec.ECPrivateKeySpec;

public class DiiaSignature {
  static final byte[] SBOX = expand(DSTU4145Params.getDefaultDKE());
  static final ASN1ObjectIdentifier GOST34311 = new ASN1ObjectIdentifier("1.2.804.2.1.1.1.1.2.1");
  static final ASN1ObjectIdentifier DSTU4145LE = new ASN1ObjectIdentifier("1.2.804.2.1.1.1.1.3.1.1");
  static final ASN1ObjectIdentifier DATA = new ASN1ObjectIdentifier("1.2.840.113549.1.7.1");
  static final ASN1ObjectIdentifier SIGNED_DATA = new ASN1ObjectIdentifier("1.2.840.113549.1.7.2");
  static final String CURVE_257 = "1.2.804.2.1.1.1.1.3.1.1.2.6";

  static byte[] expand(byte[] compressed) {
    byte[] expanded = new byte[128];
    for (int i = 0; i < compressed.length; i++) {
      expanded[i * 2] = (byte) ((compressed[i] >> 4) & 0xf);
      expanded[i * 2 + 1] = (byte) (compressed[i] & 0xf);
    }
    return expanded;
  }

  static byte[] gost34311(byte[] data) {
    GOST3411Digest digest = new GOST3411Digest(SBOX);
    digest.update(data, 0, data.length);
    byte[] out = new byte[32];
    digest.doFinal(out, 0);
    return out;
  }

  static DERSequence algorithm(ASN1ObjectIdentifier oid) {
    return new DERSequence(oid);
  }

  static DERSequence attribute(String oid, ASN1Encodable value) {
    return new DERSequence(new ASN1Encodable[] {new ASN1ObjectIdentifier(oid), new DERSet(value)});
  }

  /** OtherHash as CAdES names it with a GOST 34.311 hash: OtherHashAlgAndValue. */
  static DERSequence otherHash(byte[] data) {
    return new DERSequence(new ASN1Encodable[] {algorithm(GOST34311), new DEROctetString(gost34311(data))});
  }

  /** DSTU 4145 LE over GOST 34.311 by Bouncy Castle's provider; the CMS holds the raw r||s it wraps. */
  static byte[] sign(PrivateKey key, byte[] data) throws Exception {
    Signature signature = Signature.getInstance("GOST3411WITHDSTU4145LE", "BC");
    signature.initSign(key);
    signature.update(data);
    return ASN1OctetString.getInstance(signature.sign()).getOctets();
  }

  static DERSequence issuerAndSerial(Certificate certificate) {
    return new DERSequence(new ASN1Encodable[] {certificate.getIssuer(), certificate.getSerialNumber()});
  }

  /** A SignerInfo over the given signed attributes, optionally with unsigned ones. */
  static DERSequence signerInfo(Certificate signer, PrivateKey key, DERSet signedAttributes, ASN1EncodableVector unsigned)
      throws Exception {
    ASN1EncodableVector info = new ASN1EncodableVector();
    info.add(new ASN1Integer(1));
    info.add(issuerAndSerial(signer));
    info.add(algorithm(GOST34311));
    info.add(new DERTaggedObject(false, 0, signedAttributes));
    info.add(algorithm(DSTU4145LE));
    info.add(new DEROctetString(sign(key, signedAttributes.getEncoded(ASN1Encoding.DER))));
    if (unsigned != null) info.add(new DERTaggedObject(false, 1, new DERSet(unsigned)));
    return new DERSequence(info);
  }

  /** ContentInfo { signedData }; the certificates keep the given order (DL encoding does not sort the set). */
  static DLSequence signedData(ASN1Encodable content, Certificate[] certificates, DERSequence signerInfo) {
    ASN1EncodableVector signed = new ASN1EncodableVector();
    signed.add(new ASN1Integer(1));
    signed.add(new DERSet(algorithm(GOST34311)));
    signed.add(content == null ? new DERSequence(DATA) : new DERSequence(new ASN1Encodable[] {DATA, content}));
    if (certificates.length > 0) signed.add(new DLTaggedObject(false, 0, new DLSet(certificates)));
    signed.add(new DLSet(signerInfo));
    return new DLSequence(new ASN1Encodable[] {SIGNED_DATA, new DLTaggedObject(true, 0, new DLSequence(signed))});
  }

  static DERSet signedAttributes(byte[] messageDigest, Certificate signer) throws Exception {
    ASN1EncodableVector attributes = new ASN1EncodableVector();
    attributes.add(attribute("1.2.840.113549.1.9.3", DATA));
    attributes.add(attribute("1.2.840.113549.1.9.5", new DERUTCTime(new Date(1795651200000L))));
    attributes.add(attribute("1.2.840.113549.1.9.4", new DEROctetString(messageDigest)));
    // signing-certificate-v2: ESSCertIDv2 { GOST 34.311, hash of the signer's certificate }, as IIT's signers add.
    DERSequence essCertId = new DERSequence(new ASN1Encodable[] {
      algorithm(GOST34311), new DEROctetString(gost34311(signer.getEncoded(ASN1Encoding.DER)))});
    attributes.add(attribute("1.2.840.113549.1.9.16.2.47", new DERSequence(new DERSequence(essCertId))));
    return new DERSet(attributes);
  }

  /** certificate-values, complete-certificate-references, revocation-values, complete-revocation-references and a
   *  signature-time-stamp (a TSTInfo token, signed here by the signer's key: its TSA is not what is tested). */
  static ASN1EncodableVector xLongAttributes(Certificate ca, byte[] crl, byte[] signatureValue, PrivateKey key, Certificate signer)
      throws Exception {
    ASN1EncodableVector unsigned = new ASN1EncodableVector();
    DERSequence issuerSerial = new DERSequence(new ASN1Encodable[] {
      new GeneralNames(new GeneralName(ca.getIssuer())), ca.getSerialNumber()});
    unsigned.add(attribute("1.2.840.113549.1.9.16.2.21", new DERSequence(new DERSequence(new ASN1Encodable[] {
      otherHash(ca.getEncoded(ASN1Encoding.DER)), issuerSerial}))));
    ASN1Primitive crlList = ASN1Primitive.fromByteArray(crl);
    DERSequence crlValidatedId = new DERSequence(otherHash(crl));
    DERSequence crlListId = new DERSequence(new DERSequence(crlValidatedId));
    unsigned.add(attribute("1.2.840.113549.1.9.16.2.22",
      new DERSequence(new DERSequence(new DERTaggedObject(true, 0, crlListId)))));
    unsigned.add(attribute("1.2.840.113549.1.9.16.2.23", new DERSequence(ca)));
    unsigned.add(attribute("1.2.840.113549.1.9.16.2.24",
      new DERSequence(new DERTaggedObject(true, 0, new DERSequence(crlList)))));
    DERSequence tstInfo = new DERSequence(new ASN1Encodable[] {
      new ASN1Integer(1), new ASN1ObjectIdentifier("1.2.804.2.1.1.1.2.3.1"),
      new DERSequence(new ASN1Encodable[] {algorithm(GOST34311), new DEROctetString(gost34311(signatureValue))}),
      new ASN1Integer(4242), new DERGeneralizedTime(new Date(1795651200000L))});
    byte[] tstBytes = tstInfo.getEncoded(ASN1Encoding.DER);
    ASN1EncodableVector tokenAttributes = new ASN1EncodableVector();
    tokenAttributes.add(attribute("1.2.840.113549.1.9.3", new ASN1ObjectIdentifier("1.2.840.113549.1.9.16.1.4")));
    tokenAttributes.add(attribute("1.2.840.113549.1.9.4", new DEROctetString(gost34311(tstBytes))));
    DERSequence tokenSigner = signerInfo(signer, key, new DERSet(tokenAttributes), null);
    ASN1EncodableVector token = new ASN1EncodableVector();
    token.add(new ASN1Integer(3));
    token.add(new DERSet(algorithm(GOST34311)));
    token.add(new DERSequence(new ASN1Encodable[] {
      new ASN1ObjectIdentifier("1.2.840.113549.1.9.16.1.4"), new DERTaggedObject(true, 0, new DEROctetString(tstBytes))}));
    token.add(new DERSet(tokenSigner));
    unsigned.add(attribute("1.2.840.113549.1.9.16.2.14",
      new DERSequence(new ASN1Encodable[] {SIGNED_DATA, new DERTaggedObject(true, 0, new DERSequence(token))})));
    return unsigned;
  }

  public static void main(String[] args) throws Exception {
    Security.addProvider(new BouncyCastleProvider());
    Path dir = Path.of(args[0]);
    String[] shape = Files.readString(dir.resolve(".work-shape.txt")).trim().split(" ");
    String placement = shape[0];
    boolean xLong = shape[1].equals("x-long");
    Certificate ca = Certificate.getInstance(Files.readAllBytes(dir.resolve(".work-ca.der")));
    Certificate signer = Certificate.getInstance(Files.readAllBytes(dir.resolve(".work-signer.der")));
    byte[] crl = Files.readAllBytes(dir.resolve(".work-crl.der"));
    BigInteger d = new BigInteger(1, HexFormat.of().parseHex(Files.readString(dir.resolve(".work-signer-d.hex")).trim()));
    ECDomainParameters curve = DSTU4145NamedCurves.getByOID(new ASN1ObjectIdentifier(CURVE_257));
    // jkurwa draws d below 2^m, not below n; d mod n is the same key (G has order n), as Bouncy Castle wants it.
    PrivateKey key = KeyFactory.getInstance("DSTU4145", "BC").generatePrivate(new ECPrivateKeySpec(d.mod(curve.getN()),
      new ECParameterSpec(curve.getCurve(), curve.getG(), curve.getN(), curve.getH())));

    String requestId = Files.readString(dir.resolve("request-id.txt")).trim();
    byte[] messageDigest = gost34311(requestId.getBytes(StandardCharsets.UTF_8));
    DERSet signedAttributes = signedAttributes(messageDigest, signer);
    DERSequence plain = signerInfo(signer, key, signedAttributes, null);
    DERSequence info = plain;
    if (xLong) {
      byte[] signatureValue = ASN1OctetString.getInstance(plain.getObjectAt(5)).getOctets();
      ASN1EncodableVector withUnsigned = new ASN1EncodableVector();
      for (int i = 0; i < plain.size(); i++) withUnsigned.add(plain.getObjectAt(i));
      withUnsigned.add(new DERTaggedObject(false, 1, new DERSet(xLongAttributes(ca, crl, signatureValue, key, signer))));
      info = new DERSequence(withUnsigned);
    }
    Certificate[] certificates = switch (placement) {
      case "first" -> new Certificate[] {signer, ca};
      case "not-first" -> new Certificate[] {ca, signer};
      default -> new Certificate[] {};
    };
    DLSequence contentInfo = signedData(null, certificates, info);
    byte[] cms = contentInfo.getEncoded(ASN1Encoding.DL);
    // The callback's encodeData as Diia sends it: base64 of JSON {requestId, signature}; requestId is the hash.
    String hashedRequestId = Base64.getEncoder().encodeToString(messageDigest);
    String json = "{\"requestId\":\"" + hashedRequestId + "\",\"signature\":\"" + Base64.getEncoder().encodeToString(cms) + "\"}";
    Files.writeString(dir.resolve("signature.b64"), Base64.getMimeEncoder(76, "\n".getBytes()).encodeToString(cms) + "\n");
    Files.writeString(dir.resolve("encodeData.b64"),
      Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)) + "\n");
  }
}
