/** The phpCAS pages as an integrator writes them from phpCAS's own examples (docs/cas.md). */

/**
 * What every page starts with: phpCAS as a CAS 3.0 client of KPI ID. phpCAS speaks to a CAS server over https only
 * (it builds its /proxy address from host, port and path): Apache's https front on loopback passes /cas/ on to KPI ID.
 * The browser's and the validations' addresses are KPI ID's own, set as phpCAS's documentation shows.
 */
function setup(idpUrl: string, phpUrl: string, mode: "proxy" | "client"): string {
  const front = new URL(phpUrl);
  return `<?php
error_reporting(E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED);
require_once '/usr/share/php/CAS.php';
phpCAS::${mode}(CAS_VERSION_3_0, '${front.hostname}', ${Number(front.port)}, '/cas', '${phpUrl}');
phpCAS::setServerLoginURL('${idpUrl}/cas/login?service=' . urlencode(phpCAS::getServiceURL()));
phpCAS::setServerServiceValidateURL('${idpUrl}/cas/p3/serviceValidate');
phpCAS::setServerProxyValidateURL('${idpUrl}/cas/p3/proxyValidate');
phpCAS::setServerLogoutURL('${idpUrl}/cas/logout');
${
  mode === "proxy"
    ? `phpCAS::setFixedCallbackURL('${phpUrl}/index.php');
`
    : ""
}// The test's https front has a throw-away certificate; in production the CA is named (setCasServerCACert).
phpCAS::setNoCasServerValidation();
// Single logout: KPI ID posts its LogoutRequest from this computer.
phpCAS::handleLogoutRequests(true, array('127.0.0.1', '::1', 'localhost'));
`;
}

const phpEscaper = "function e($text) { return htmlspecialchars((string) $text, ENT_QUOTES, 'UTF-8'); }\n";

export function indexPhp(idpUrl: string, phpUrl: string, phpServerUrl: string): string {
  return `${setup(idpUrl, phpUrl, "proxy")}${phpEscaper}
if (isset($_GET['logout'])) {
  phpCAS::logoutWithRedirectService('${phpUrl}/index.php');
}
phpCAS::forceAuthentication();
$backend = '';
if (isset($_GET['proxy'])) {
  $target = '${phpUrl}/backend.php';
  $pt = phpCAS::retrievePT($target, $code, $message);
  if ($pt === false) {
    $backend = 'no proxy ticket: ' . $code . ' ' . $message;
  } else {
    // Server to server on this computer: the back end's own plain-http port (its service address is still $target).
    $backend = file_get_contents('${phpServerUrl}/backend.php?ticket=' . urlencode($pt));
  }
}
?><!doctype html><html><head><meta charset="utf-8"><title>phpCAS</title></head><body>
<p data-testid="php-user"><?= e(phpCAS::getUser()) ?></p>
<ul data-testid="php-attributes">
<?php foreach (phpCAS::getAttributes() as $name => $value) { ?>
<li data-attribute="<?= e($name) ?>"><?= e(is_array($value) ? implode(',', $value) : $value) ?></li>
<?php } ?>
</ul>
<p data-testid="php-backend"><?= e($backend) ?></p>
<a href="index.php?proxy=1" data-testid="php-proxy">Back end</a>
<a href="index.php?logout=1" data-testid="php-logout">Sign out</a>
</body></html>
`;
}

/** The back end: accepts a proxy ticket from the front page (any proxy chain KPI ID reports) and says who and through whom. */
export function backendPhp(idpUrl: string, phpUrl: string): string {
  return `${setup(idpUrl, phpUrl, "client")}
phpCAS::allowProxyChain(new CAS_ProxyChain_Any());
phpCAS::forceAuthentication();
header('Content-Type: text/plain; charset=utf-8');
echo 'back end: ' . phpCAS::getUser() . ' via ' . implode(' ', phpCAS::getProxies());
`;
}
