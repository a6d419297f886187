// Step 2 of regenerate.sh: encrypts the bank's SignedData to the recipient's DSTU 4145 key as BankID NBU does,
// with Bouncy Castle's primitives only (independent of jkurwa/gost89 and of KPI ID's TypeScript), in the shape
// one vector folder asks for: an ephemeral DSTU 4145 key on the recipient's curve (dynamic agreement) or the
// bank's static encryption key named by issuer and serial number or by subject key id; cofactor
// Diffie-Hellman (ECDHCBasicAgreement); the GOST 34.311 KDF over ZZ || 00000001 || SharedInfo, with or without
// ukm; the GOST 28147 key wrap (MAC, CFB, reverse, CFB with the fixed IV); GOST 28147 gamma mode
// (GOFBBlockCipher) or CFB (CFBBlockCipher) for the content; all with the DSTU default S-box (DKE 1).
// A "carried" shape puts the CA's and the bank's encryption certificates in the EnvelopedData's
// originatorInfo (Bouncy Castle's OriginatorInfo), where cryptonite looks for the originator's certificate.
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

import org.bouncycastle.asn1.*;
import org.bouncycastle.asn1.ua.DSTU4145NamedCurves;
import org.bouncycastle.asn1.ua.DSTU4145Params;
import org.bouncycastle.asn1.ua.DSTU4145PointEncoder;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.agreement.ECDHCBasicAgreement;
import org.bouncycastle.crypto.digests.GOST3411Digest;
import org.bouncycastle.crypto.engines.GOST28147Engine;
import org.bouncycastle.crypto.generators.ECKeyPairGenerator;
import org.bouncycastle.crypto.macs.GOST28147Mac;
import org.bouncycastle.crypto.modes.CFBBlockCipher;
import org.bouncycastle.crypto.modes.GOFBBlockCipher;
import org.bouncycastle.crypto.params.*;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;

public class BankIdEnvelope {
  static final byte[] SBOX = expand(DSTU4145Params.getDefaultDKE());
  static final byte[] WRAP_IV = HexFormat.of().parseHex("4adda22c79e82105");
  static final SecureRandom random = new SecureRandom();

  static byte[] expand(byte[] compressed) {
    byte[] expanded = new byte[128];
    for (int i = 0; i < compressed.length; i++) {
      expanded[i * 2] = (byte) ((compressed[i] >> 4) & 0xf);
      expanded[i * 2 + 1] = (byte) (compressed[i] & 0xf);
    }
    return expanded;
  }

  static byte[] reverse(byte[] in) {
    byte[] out = new byte[in.length];
    for (int i = 0; i < in.length; i++) out[i] = in[in.length - 1 - i];
    return out;
  }

  static byte[] stream(org.bouncycastle.crypto.BlockCipher cipher, byte[] key, byte[] iv, byte[] data) {
    cipher.init(true, new ParametersWithIV(new ParametersWithSBox(new KeyParameter(key), SBOX), iv));
    byte[] padded = new byte[(data.length + 7) / 8 * 8];
    System.arraycopy(data, 0, padded, 0, data.length);
    byte[] out = new byte[padded.length];
    for (int at = 0; at < padded.length; at += 8) cipher.processBlock(padded, at, out, at);
    byte[] result = new byte[data.length];
    System.arraycopy(out, 0, result, 0, data.length);
    return result;
  }

  static byte[] mac(byte[] key, byte[] data) {
    GOST28147Mac mac = new GOST28147Mac();
    mac.init(new ParametersWithSBox(new KeyParameter(key), SBOX));
    mac.update(data, 0, data.length);
    byte[] out = new byte[mac.getMacSize()];
    mac.doFinal(out, 0);
    return out;
  }

  static byte[] wrap(byte[] kek, byte[] cek) {
    byte[] iv = new byte[8];
    random.nextBytes(iv);
    byte[] cekIcv = new byte[36];
    System.arraycopy(cek, 0, cekIcv, 0, 32);
    System.arraycopy(mac(kek, cek), 0, cekIcv, 32, 4);
    byte[] first = stream(new CFBBlockCipher(new GOST28147Engine(), 64), kek, iv, cekIcv);
    byte[] ivAndFirst = new byte[44];
    System.arraycopy(iv, 0, ivAndFirst, 0, 8);
    System.arraycopy(first, 0, ivAndFirst, 8, 36);
    return stream(new CFBBlockCipher(new GOST28147Engine(), 64), kek, WRAP_IV, reverse(ivAndFirst));
  }

  /** Leading zero bytes of the field-sized x. */
  static int leadingZeros(byte[] x) {
    int count = 0;
    while (count < x.length && x[count] == 0) count++;
    return count;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    // The shape (written by make-inputs.ts): curve OID, ukm yes|no, originator key|issuer|keyid,
    // content cipher ctr|cfb, wanted leading zero bytes of x (any|0|1|2), ZZ rule all|one,
    // carried|not-carried (the originator's certificates in originatorInfo).
    String[] shape = Files.readString(dir.resolve(".work-shape.txt")).trim().split(" ");
    String curveOid = shape[0];
    boolean withUkm = shape[1].equals("yes");
    String originatorKind = shape[2];
    String cipherMode = shape[3];
    String wantedZeros = shape[4];
    boolean stripAll = shape[5].equals("all");
    boolean carried = shape.length > 6 && shape[6].equals("carried");

    byte[] signed = Files.readAllBytes(dir.resolve(".work-signed.der"));
    byte[] recipientLe = HexFormat.of().parseHex(Files.readString(dir.resolve(".work-recipient-pub.hex")).trim());
    byte[] ski = HexFormat.of().parseHex(Files.readString(dir.resolve(".work-recipient-ski.hex")).trim());

    ECDomainParameters curve = DSTU4145NamedCurves.getByOID(new ASN1ObjectIdentifier(curveOid));
    // jkurwa's serialize(): OCTET STRING (04, length) of the little-endian compressed point.
    byte[] compressedLe = new byte[recipientLe.length - 2];
    System.arraycopy(recipientLe, 2, compressedLe, 0, compressedLe.length);
    ECPoint recipientPoint = DSTU4145PointEncoder.decodePoint(curve.getCurve(), reverse(compressedLe));
    ECPublicKeyParameters recipient = new ECPublicKeyParameters(recipientPoint, curve);
    int fieldBytes = (curve.getCurve().getFieldSize() + 7) / 8;

    // Static agreement: the bank's encryption key (its certificate is originator.pem); dynamic: an
    // ephemeral key, drawn again until x has the wanted number of leading zero bytes.
    ECPrivateKeyParameters senderPrivate;
    ECPoint senderPublic;
    byte[] zzFixed;
    while (true) {
      if (originatorKind.equals("key")) {
        ECKeyPairGenerator generator = new ECKeyPairGenerator();
        generator.init(new ECKeyGenerationParameters(curve, random));
        AsymmetricCipherKeyPair pair = generator.generateKeyPair();
        senderPrivate = (ECPrivateKeyParameters) pair.getPrivate();
        senderPublic = ((ECPublicKeyParameters) pair.getPublic()).getQ();
      } else {
        BigInteger d = new BigInteger(1, HexFormat.of().parseHex(Files.readString(dir.resolve(".work-bank-d.hex")).trim()));
        // jkurwa draws d below the field size, not the order; d mod n is the same key (n·Q = O).
        senderPrivate = new ECPrivateKeyParameters(d.mod(curve.getN()), curve);
        senderPublic = null;
      }
      ECDHCBasicAgreement agreement = new ECDHCBasicAgreement();
      agreement.init(senderPrivate);
      zzFixed = BigIntegers.asUnsignedByteArray(fieldBytes, agreement.calculateAgreement(recipient));
      if (wantedZeros.equals("any") || leadingZeros(zzFixed) == Integer.parseInt(wantedZeros)) break;
      if (!originatorKind.equals("key")) throw new IllegalStateException("a static key cannot be drawn again");
    }
    // ZZ: every leading zero byte dropped (cryptonite, UAPKI) or one (jkurwa).
    int drop = stripAll ? Math.min(leadingZeros(zzFixed), zzFixed.length - 1) : (zzFixed[0] == 0 ? 1 : 0);
    byte[] zz = java.util.Arrays.copyOfRange(zzFixed, drop, zzFixed.length);

    byte[] ukm = null;
    if (withUkm) {
      ukm = new byte[64];
      random.nextBytes(ukm);
    }
    AlgorithmIdentifierLike wrapAlgorithm = new AlgorithmIdentifierLike("1.2.804.2.1.1.1.1.1.1.5");
    ASN1EncodableVector sharedInfo = new ASN1EncodableVector();
    sharedInfo.add(wrapAlgorithm.toAsn1());
    if (ukm != null) sharedInfo.add(new DERTaggedObject(true, 0, new DEROctetString(ukm)));
    sharedInfo.add(new DERTaggedObject(true, 2, new DEROctetString(new byte[] {0, 0, 1, 0})));
    ByteArrayOutputStream kdfInput = new ByteArrayOutputStream();
    kdfInput.write(zz);
    kdfInput.write(new byte[] {0, 0, 0, 1});
    kdfInput.write(new DERSequence(sharedInfo).getEncoded(ASN1Encoding.DER));
    GOST3411Digest digest = new GOST3411Digest(SBOX);
    byte[] input = kdfInput.toByteArray();
    digest.update(input, 0, input.length);
    byte[] kek = new byte[32];
    digest.doFinal(kek, 0);

    byte[] cek = new byte[32];
    random.nextBytes(cek);
    byte[] contentIv = new byte[8];
    random.nextBytes(contentIv);
    boolean cfb = cipherMode.equals("cfb");
    byte[] encrypted = cfb
        ? stream(new CFBBlockCipher(new GOST28147Engine(), 64), cek, contentIv, signed)
        : stream(new GOFBBlockCipher(new GOST28147Engine()), cek, contentIv, signed);

    ASN1Encodable originator;
    if (originatorKind.equals("key")) {
      byte[] senderLe = reverse(DSTU4145PointEncoder.encodePoint(senderPublic));
      ASN1EncodableVector originatorKey = new ASN1EncodableVector();
      originatorKey.add(new DERSequence(new ASN1Encodable[] {new ASN1ObjectIdentifier("1.2.804.2.1.1.1.1.3.1.1"), DERNull.INSTANCE}));
      originatorKey.add(new DERBitString(new DEROctetString(senderLe).getEncoded(ASN1Encoding.DER)));
      originator = new DERTaggedObject(false, 1, new DERSequence(originatorKey));
    } else {
      org.bouncycastle.asn1.x509.Certificate bank =
          org.bouncycastle.asn1.x509.Certificate.getInstance(Files.readAllBytes(dir.resolve(".work-originator.der")));
      if (originatorKind.equals("issuer")) {
        originator = new DERSequence(new ASN1Encodable[] {bank.getIssuer(), bank.getSerialNumber()});
      } else {
        org.bouncycastle.asn1.x509.SubjectKeyIdentifier bankKeyId = org.bouncycastle.asn1.x509.SubjectKeyIdentifier.fromExtensions(
            bank.getTBSCertificate().getExtensions());
        originator = new DERTaggedObject(false, 0, new DEROctetString(bankKeyId.getKeyIdentifier()));
      }
    }
    ASN1EncodableVector kari = new ASN1EncodableVector();
    kari.add(new ASN1Integer(3));
    kari.add(new DERTaggedObject(true, 0, originator));
    if (ukm != null) kari.add(new DERTaggedObject(true, 1, new DEROctetString(ukm)));
    kari.add(new DERSequence(new ASN1Encodable[] {new ASN1ObjectIdentifier("1.2.804.2.1.1.1.1.3.4"), wrapAlgorithm.toAsn1()}));
    ASN1Encodable rid = new DERTaggedObject(false, 0, new DERSequence(new DEROctetString(ski)));
    kari.add(new DERSequence(new DERSequence(new ASN1Encodable[] {rid, new DEROctetString(wrap(kek, cek))})));
    ASN1EncodableVector encryptedContentInfo = new ASN1EncodableVector();
    encryptedContentInfo.add(new ASN1ObjectIdentifier("1.2.840.113549.1.7.1"));
    encryptedContentInfo.add(new DERSequence(new ASN1Encodable[] {
      new ASN1ObjectIdentifier(cfb ? "1.2.804.2.1.1.1.1.1.1.3" : "1.2.804.2.1.1.1.1.1.1.2"),
      new DERSequence(new DEROctetString(contentIv))}));
    encryptedContentInfo.add(new DERTaggedObject(false, 0, new DEROctetString(encrypted)));
    ASN1EncodableVector enveloped = new ASN1EncodableVector();
    enveloped.add(new ASN1Integer(2));
    if (carried) {
      ASN1Encodable[] certificates = {
        org.bouncycastle.asn1.x509.Certificate.getInstance(Files.readAllBytes(dir.resolve(".work-carried-ca.der"))),
        org.bouncycastle.asn1.x509.Certificate.getInstance(Files.readAllBytes(dir.resolve(".work-originator.der")))};
      org.bouncycastle.asn1.cms.OriginatorInfo info =
          new org.bouncycastle.asn1.cms.OriginatorInfo(new DERSet(certificates), null);
      enveloped.add(new DERTaggedObject(false, 0, info));
    }
    enveloped.add(new DERSet(new DERTaggedObject(false, 1, new DERSequence(kari))));
    enveloped.add(new DERSequence(encryptedContentInfo));
    DERSequence contentInfo = new DERSequence(new ASN1Encodable[] {
      new ASN1ObjectIdentifier("1.2.840.113549.1.7.3"), new DERTaggedObject(true, 0, new DERSequence(enveloped))});
    Files.writeString(dir.resolve("envelope.b64"),
      Base64.getMimeEncoder(76, "\n".getBytes()).encodeToString(contentInfo.getEncoded(ASN1Encoding.DER)) + "\n");
    // What the test checks the shape by: x's leading zero bytes as Bouncy Castle computed them.
    Files.writeString(dir.resolve("x-leading-zeros.txt"), leadingZeros(zzFixed) + "\n");
  }

  record AlgorithmIdentifierLike(String oid) {
    ASN1Encodable toAsn1() {
      return new DERSequence(new ASN1Encodable[] {new ASN1ObjectIdentifier(oid), DERNull.INSTANCE});
    }
  }
}
