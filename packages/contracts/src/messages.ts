import type { ErrorCode } from "./errors.ts";

/** The languages of the interface; Ukrainian is the default and the fallback. */
export const languages = ["uk", "en"] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = "uk";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

type ErrorMessages = Record<ErrorCode, string>;

// Ukrainian is the reference locale: English must satisfy the same shape,
// so a code without a message in either language is a type error.
export const ukErrorMessages = {
  "request.invalid_json": "Тіло запиту не є коректним JSON.",
  "request.validation_failed": "Запит містить неприпустимі або відсутні поля.",
  "request.unstorable_text": "Запит містить недопустимий символ (U+0000).",
  "request.payload_too_large": "Запит завеликий.",
  "scim.unauthorized": "Потрібен чинний токен SCIM.",
  "scim.invalid_request": "Запит SCIM неприпустимий.",
  "scim.forbidden": "Цю дію SCIM не дозволено.",
  "scim.conflict": "Такий ресурс SCIM уже є.",
  "scim.version_mismatch": "Ресурс SCIM змінився: прочитайте його знову.",
  "scim.not_implemented": "Цей запит SCIM KPI ID не виконує.",
  "request.unsupported_media_type": "Непідтримуваний тип вмісту: надсилайте application/json.",
  "request.csrf_rejected": "Запит відхилено: він надійшов не з сайту KPI ID.",
  "request.not_found": "Сторінку або ресурс не знайдено.",
  "request.rate_limited": "Забагато запитів. Спробуйте пізніше.",
  "auth.invalid_credentials": "Неправильне ім'я користувача або пароль.",
  "auth.too_many_attempts": "Забагато невдалих спроб входу. Спробуйте пізніше.",
  "auth.grant_invalid": "Сеанс входу недійсний або застарів. Увійдіть ще раз.",
  "auth.not_authenticated": "Потрібно увійти.",
  "auth.reauth_required": "Для цієї зміни підтвердьте, що це ви: увійдіть ще раз.",
  "auth.reauth_second_factor_required":
    "Для цієї зміни увійдіть ще раз із другим фактором: паролем і кодом із застосунку або ключем доступу.",
  "auth.step_up_required": "Потрібен надійніший вхід: підтвердьте його другим фактором або ключем доступу.",
  "auth.code_invalid": "Код неправильний або вже використаний. Спробуйте наступний код.",
  "mfa.already_set_up": "Застосунок-автентифікатор уже налаштовано. Щоб замінити його, спершу вимкніть поточний.",
  "mfa.not_set_up": "Другий фактор не налаштовано.",
  "passkey.failed": "Цей ключ доступу не підійшов. Спробуйте інший спосіб входу.",
  "passkey.challenge_invalid": "Запит ключа доступу застарів або вже використаний. Спробуйте ще раз.",
  "passkey.counter_regressed":
    "Ключ доступу відхилено: схоже, його скопійовано з іншого пристрою. Увійдіть інакше й видаліть цей ключ.",
  "passkey.already_registered": "Цей ключ доступу вже додано.",
  "passkey.not_found": "Такого ключа доступу немає: можливо, його вже видалено.",
  "account.session_not_found": "Такого сеансу немає: можливо, він уже завершився.",
  "account.application_not_found": "Цей застосунок не має доступу до ваших даних: можливо, його вже відкликано.",
  "account.last_sign_in_method":
    "Це ваш єдиний спосіб входу: без нього ви не зможете увійти. Спершу потрібен пароль або Дія.",
  "password.too_short": "Пароль закороткий: потрібно щонайменше 8 символів (радимо 15 і більше).",
  "password.too_long": "Пароль задовгий: не більше 128 символів.",
  "password.blocklisted":
    "Цей пароль легко вгадати: він поширений або містить ваше ім'я, логін чи назву університету. Оберіть інший.",
  "password.current_wrong": "Поточний пароль неправильний.",
  "recovery.link_invalid":
    "Посилання для відновлення недійсне: воно застаріло, уже використане або замінене новішим. Попросіть нове.",
  "recovery.not_available": "Цей сервіс не відновлює доступ поштою. Скористайтеся Дією або зверніться до підтримки.",
  "app.not_found": "Застосунок не знайдено.",
  "app.access_denied": "У вас немає доступу до цього застосунку.",
  "oidc.interaction_not_found":
    "Запит на вхід до застосунку не знайдено або він застарів. Почніть вхід у застосунку ще раз.",
  "saml.request_refused":
    "Запит сервісу на вхід відхилено: сервіс невідомий, підпис або адреса неправильні, або запит уже використано. Почніть вхід у сервісі ще раз.",
  "saml.weak_signature":
    'Сервіс підписав запит на вхід застарілим алгоритмом SHA-1, і KPI ID такий запит не приймає. Перекажіть адміністраторові сервісу: завантажте метадані KPI ID ще раз (вони оголошують RSA-SHA256) або задайте signingAlg="rsa-sha256" у shibboleth2.xml.',
  "device.code_not_found": "Такого коду немає. Перевірте цифри на екрані пристрою й введіть їх ще раз.",
  "device.code_expired": "Час дії коду минув. Попросіть пристрій показати новий код.",
  "device.code_used": "Цей код уже використано. Попросіть пристрій показати новий код.",
  "device.too_many_attempts": "Забагато неправильних кодів. Спробуйте пізніше.",
  "device.form_expired": "Сторінка застаріла. Введіть код ще раз.",
  "saml.request_not_found": "Запит сервісу на вхід не знайдено або він застарів. Почніть вхід у сервісі ще раз.",
  "consent.request_not_found":
    "Запит застосунку на ваші дані не знайдено, він застарів або на нього вже відповіли. Відкрийте застосунок ще раз.",
  "ticket.invalid": "Квиток недійсний, уже використаний або застарів, або дані застосунку неправильні.",
  "forward_auth.not_configured": "Цей сайт не налаштовано для входу через KPI ID. Зверніться до його адміністратора.",
  "forward_auth.sign_in_required": "Щоб відкрити цей сайт, увійдіть через KPI ID.",
  "forward_auth.no_access":
    "У вас немає доступу до цього сайту. Якщо він вам потрібен, зверніться до його адміністратора.",
  "cas.service_not_registered":
    "Адресу сервісу не зареєстровано в KPI ID, тому вхід не може продовжитися. Перекажіть це адміністраторові сервісу.",
  "cas.request_not_found": "Запит сервісу на вхід не знайдено або він застарів. Почніть вхід у сервісі ще раз.",
  "cas.service_invalid":
    "Адреса сервісу CAS має бути повною адресою https так, як її пише браузер, без імені, пароля, фрагмента чи зірочки; префікс закінчується на «/».",
  "cas.service_taken": "Ця адреса вже належить сервісу CAS іншого застосунку або перетинається з ним.",
  "radius.unauthorized": "Лише сервер RADIUS університету може звертатися сюди.",
  "wifi.limit_reached":
    "У вас уже 10 паролів Wi-Fi. Відкличте пароль пристрою, яким не користуєтеся, і створіть новий.",
  "wifi.password_not_found": "Такого пароля Wi-Fi немає: його вже відкликано.",
  "wifi.not_configured": "Wi-Fi через KPI ID не налаштовано.",
  "google.failed": "Не вдалося увійти через Google.",
  "google.not_configured": "Вхід через Google не налаштовано.",
  "diia.failed": "Не вдалося увійти через Дію.",
  "diia.request_not_found": "Запит Дії не знайдено або він застарів.",
  "diia.not_configured": "Вхід через Дію не налаштовано.",
  "diia.unavailable": "Дія зараз недоступна. Спробуйте трохи пізніше.",
  "bankid.failed": "Не вдалося увійти через BankID НБУ.",
  "bankid.not_configured": "Вхід через BankID НБУ не налаштовано.",
  "bankid.unavailable": "BankID НБУ або ваш банк зараз недоступні. Спробуйте трохи пізніше.",
  "admin.forbidden": "Ця дія консолі вам не дозволена: потрібна роль адміністратора або служби підтримки.",
  "admin.person_outranks_operator": "Ця людина має роль вищу за вашу: дію з нею може виконати лише адміністратор.",
  "admin.person_not_found": "Такої особи немає.",
  "admin.no_verified_address":
    "Ця особа не має підтвердженої адреси е-пошти: лист відновлення надіслати нікуди. Допоможіть їй через Дію або особисто.",
  "admin.person_disabled": "Обліковий запис вимкнено: спершу увімкніть його.",
  "admin.person_erased": "Дані цієї особи вже стерто.",
  "admin.erase_self": "Власні дані стерти не можна: зверніться до іншого адміністратора.",
  "admin.erase_last_admin": "Це єдиний адміністратор: спершу надайте роль admin іншій особі.",
  "admin.erase_not_confirmed": "Для підтвердження введіть ім'я користувача цієї особи.",
  "admin.username_taken": "Це ім'я користувача або цей РНОКПП уже має інша особа.",
  "admin.import_not_csv": "Це не CSV-файл: потрібен текстовий файл із рядком заголовків і значеннями через кому.",
  "admin.import_wrong_encoding": "Файл не в кодуванні UTF-8. Збережіть його як «CSV UTF-8» і завантажте ще раз.",
  "admin.import_unknown_columns":
    "У файлі є невідомі стовпці. Дозволені: username, full-name, email, tax-id, student-id, employee-id, password, apps.",
  "admin.import_too_large":
    "Файл завеликий для імпорту через консоль: розділіть його або скористайтеся командою user import.",
  "admin.import_job_not_found": "Такого імпорту немає. Можливо, його видалено через 30 днів; запустіть його знову.",
  "app.oidc_needs_redirect_uri": "Щоб увімкнути OpenID Connect, додайте принаймні одну адресу повернення після входу.",
  "app.invalid_url": "Адреса має бути повною адресою https без фрагмента (#); http дозволено лише для localhost.",
  "app.callback_required": "Потрібна принаймні одна адреса повернення для квитків (callback URL).",
  "app.title_required": "Назва застосунку українською обов'язкова.",
  "app.invalid_name":
    "Назва (ідентифікатор) може містити лише латинські літери, цифри, «-» і «_» та починатися з літери чи цифри.",
  "app.unknown_scope":
    "Застосунок не може запитувати такі дані. Дозволені: openid, profile, email, kpi, offline_access, tax_id.",
  "app.rule_empty": "Правилу потрібна приналежність, підрозділ або статус.",
  "app.unknown_unit": "Немає підрозділу з таким кодом.",
  "app.rule_exists": "Застосунок уже має таке правило.",
  "app.rule_not_found": "Такого правила в застосунку немає (можливо, його вже вилучено).",
  "app.unknown_person": "Немає людини з таким логіном.",
  "app.bulk_grant_too_long": "Список задовгий: не більше 5 000 рядків за раз. Розділіть його.",
  "developer.not_allowed": "Реєструвати застосунки можуть студенти й працівники університету.",
  "developer.limit_reached":
    "Ви вже маєте найбільшу дозволену кількість застосунків. Видаліть непотрібний або зверніться до адміністраторів.",
  "developer.application_not_found": "Застосунок не знайдено серед ваших.",
  "developer.tester_limit": "Застосунок у тестуванні може мати не більше 25 тестувальників.",
  "developer.invitation_not_found": "Запрошення не знайдено: його відкликали, воно застаріло або вже має відповідь.",
  "developer.too_many_invitations": "Забагато запрошень поспіль. Зачекайте трохи й спробуйте знову.",
  "developer.last_owner": "Застосунок повинен мати принаймні одного власника.",
  "developer.review_not_possible":
    "Зараз подати застосунок на перевірку не можна: він уже на перевірці, уже працює для всіх або призупинений.",
  "developer.invalid_uri":
    "Адреса неприпустима: потрібна повна адреса https (звичайний http лише для http://localhost чи http://127.0.0.1, вашого комп'ютера), без *, без імені й пароля перед хостом і без # у кінці.",
  "developer.insecure_uri":
    "Дозволені лише адреси https, а для розробки — http://localhost і http://127.0.0.1. Змініть цю адресу.",
  "developer.uri_required":
    "Вкажіть принаймні одну адресу повернення квитка або адресу перенаправлення OpenID Connect.",
  "developer.reserved_name":
    "Цю назву має офіційний застосунок університету (або вона схожа на неї до літери). Оберіть іншу.",
  "developer.invalid_characters":
    "Назва й опис не можуть містити керівних і невидимих символів (переведення рядка, зміни напрямку тексту, символів нульової ширини).",
  "developer.under_review":
    "Застосунок на перевірці: змінити його можна після рішення адміністраторів, щоб вони схвалили саме те, що бачили.",
  "developer.change_not_pending": "Ця зміна вже не очікує рішення: оновіть сторінку.",
  "developer.invalid_icon":
    "Піктограма має бути файлом PNG або простим SVG до 64 КіБ: лише фігури, градієнти й текст, без скриптів, стилів поза кольорами й зовнішніх посилань (експортуйте як «звичайний SVG»).",
  "developer.callbacks_need_secret":
    "Адреси повернення квитка потребують сервера, який зберігає секрет: односторінковий, мобільний чи консольний застосунок натомість використовує OpenID Connect із PKCE.",
  "developer.confirmation_mismatch": "Щоб видалити застосунок, введіть його назву точно так, як її показано.",
  "developer.no_secret":
    "Односторінковий, мобільний чи консольний застосунок — публічний клієнт: секрету, який можна замінити, він не має.",
  "admin.review_outdated": "Запит змінився, поки ви його читали: перегляньте його ще раз.",
  "admin.review_not_pending": "Цей запит на перевірку вже розглянуто.",
  "admin.application_name_taken": "Застосунок із такою назвою вже є.",
  "service.database_unavailable": "Сервіс тимчасово недоступний. Спробуйте за хвилину.",
  "service.internal_error": "Сталася внутрішня помилка. Спробуйте пізніше.",
} as const satisfies ErrorMessages;

export const enErrorMessages = {
  "request.invalid_json": "The request body is not valid JSON.",
  "request.validation_failed": "The request has invalid or missing fields.",
  "request.unstorable_text": "The request contains a character that is not allowed (U+0000).",
  "request.payload_too_large": "The request is too large.",
  "scim.unauthorized": "A valid SCIM token is required.",
  "scim.invalid_request": "The SCIM request is not valid.",
  "scim.forbidden": "This SCIM operation is not allowed.",
  "scim.conflict": "Such a SCIM resource exists already.",
  "scim.version_mismatch": "The SCIM resource has changed: read it again.",
  "scim.not_implemented": "KPI ID does not serve this SCIM request.",
  "request.unsupported_media_type": "Unsupported content type: send application/json.",
  "request.csrf_rejected": "Request refused: it did not come from the KPI ID site.",
  "request.not_found": "The page or resource was not found.",
  "request.rate_limited": "Too many requests. Try again later.",
  "auth.invalid_credentials": "Wrong username or password.",
  "auth.too_many_attempts": "Too many failed sign-in attempts. Try again later.",
  "auth.grant_invalid": "The sign-in session is invalid or has expired. Sign in again.",
  "auth.not_authenticated": "You need to sign in.",
  "auth.reauth_required": "To make this change, confirm it is you: sign in again.",
  "auth.reauth_second_factor_required":
    "To make this change, sign in again with your second factor: your password and a code from your app, or a passkey.",
  "auth.step_up_required": "This needs a stronger sign-in: confirm it with your second factor or a passkey.",
  "auth.code_invalid": "The code is wrong or was already used. Try the next code.",
  "mfa.already_set_up": "An authenticator app is already set up. To replace it, turn the current one off first.",
  "mfa.not_set_up": "No second factor is set up.",
  "passkey.failed": "This passkey did not work. Try another way to sign in.",
  "passkey.challenge_invalid": "The passkey request expired or was already used. Try again.",
  "passkey.counter_regressed":
    "Passkey refused: it looks copied from another device. Sign in another way and remove this passkey.",
  "passkey.already_registered": "This passkey is already added.",
  "passkey.not_found": "There is no such passkey: it may have been removed already.",
  "account.session_not_found": "There is no such session: it may have ended already.",
  "account.application_not_found": "This application has no access to your data: it may have been revoked already.",
  "account.last_sign_in_method":
    "This is your only way to sign in: without it you could not sign in. You need a password or Diia first.",
  "password.too_short": "The password is too short: at least 8 characters are needed (15 or more advised).",
  "password.too_long": "The password is too long: 128 characters at most.",
  "password.blocklisted":
    "This password is easy to guess: it is common or contains your name, username or the university's name. Choose another.",
  "password.current_wrong": "The current password is wrong.",
  "recovery.link_invalid":
    "The recovery link is not valid: it has expired, was already used or was replaced by a newer one. Ask for a new one.",
  "recovery.not_available": "This service does not offer recovery by e-mail. Use Diia or contact support.",
  "app.not_found": "Application not found.",
  "app.access_denied": "You do not have access to this application.",
  "oidc.interaction_not_found":
    "The application's sign-in request was not found or has expired. Start signing in from the application again.",
  "saml.request_refused":
    "The service's sign-in request was refused: the service is unknown, its signature or address is wrong, or the request was already used. Start signing in from the service again.",
  "saml.weak_signature":
    "The service signed its sign-in request with SHA-1, which KPI ID does not accept. Tell the service's administrator: load KPI ID's metadata again (it advertises RSA-SHA256) or set signingAlg=\"rsa-sha256\" in shibboleth2.xml.",
  "device.code_not_found": "There is no such code. Check the digits on the device's screen and enter them again.",
  "device.code_expired": "The code has expired. Ask the device to show a new one.",
  "device.code_used": "This code has already been used. Ask the device to show a new one.",
  "device.too_many_attempts": "Too many wrong codes. Try again later.",
  "device.form_expired": "The page has expired. Enter the code again.",
  "saml.request_not_found":
    "The service's sign-in request was not found or has expired. Start signing in from the service again.",
  "consent.request_not_found":
    "The application's request for your data was not found, has expired or was already answered. Open the application again.",
  "ticket.invalid": "The ticket is invalid, already used or expired, or the application credentials are wrong.",
  "forward_auth.not_configured": "This site is not set up for sign-in with KPI ID. Contact its administrator.",
  "forward_auth.sign_in_required": "Sign in with KPI ID to open this site.",
  "forward_auth.no_access": "You do not have access to this site. If you need it, contact its administrator.",
  "cas.service_not_registered":
    "The service's address is not registered with KPI ID, so the sign-in cannot continue. Tell the service's administrator.",
  "cas.request_not_found":
    "The service's sign-in request was not found or has expired. Start signing in from the service again.",
  "cas.service_invalid":
    'A CAS service address must be a full https address as the browser writes it, with no name, password, fragment or asterisk; a prefix ends in "/".',
  "cas.service_taken": "This address belongs to, or overlaps, another application's CAS service.",
  "radius.unauthorized": "Only the university's RADIUS server may call this.",
  "wifi.limit_reached":
    "You already have 10 Wi-Fi passwords. Revoke the one of a device you no longer use, then create a new one.",
  "wifi.password_not_found": "There is no such Wi-Fi password: it has already been revoked.",
  "wifi.not_configured": "Wi-Fi through KPI ID is not set up.",
  "google.failed": "Signing in with Google failed.",
  "google.not_configured": "Sign-in with Google is not configured.",
  "diia.failed": "Signing in with Diia failed.",
  "diia.request_not_found": "The Diia request was not found or has expired.",
  "diia.not_configured": "Sign-in with Diia is not configured.",
  "diia.unavailable": "Diia is not reachable right now. Please try again a little later.",
  "bankid.failed": "Signing in with BankID NBU failed.",
  "bankid.not_configured": "Sign-in with BankID NBU is not configured.",
  "bankid.unavailable": "BankID NBU or your bank is not reachable right now. Please try again a little later.",
  "admin.forbidden": "You may not do this in the console: it needs the admin or helpdesk role.",
  "admin.person_outranks_operator": "This person holds a role above yours: only an admin may do this to them.",
  "admin.person_not_found": "There is no such person.",
  "admin.no_verified_address":
    "This person has no confirmed e-mail address: there is nowhere to send a recovery mail. Help them through Diia or in person.",
  "admin.person_disabled": "The account is disabled: enable it first.",
  "admin.person_erased": "This person's data has already been erased.",
  "admin.erase_self": "You cannot erase your own data: ask another admin.",
  "admin.erase_last_admin": "This is the only admin: give the admin role to someone else first.",
  "admin.erase_not_confirmed": "Type this person's username to confirm.",
  "admin.username_taken": "Another person already has this username or tax id.",
  "admin.import_not_csv": "This is not a CSV file: send a text file with a header row and comma-separated values.",
  "admin.import_wrong_encoding": "The file is not UTF-8. Save it as “CSV UTF-8” and upload it again.",
  "admin.import_unknown_columns":
    "The file has unknown columns. Allowed: username, full-name, email, tax-id, student-id, employee-id, password, apps.",
  "admin.import_too_large": "The file is too large for the console's import: split it or use the user import command.",
  "admin.import_job_not_found": "There is no such import. It may have been removed after 30 days; start it again.",
  "app.oidc_needs_redirect_uri": "To turn OpenID Connect on, add at least one redirect URI.",
  "app.invalid_url":
    "The address must be an absolute https URL without a fragment (#); http is allowed on localhost only.",
  "app.callback_required": "At least one ticket callback URL is needed.",
  "app.title_required": "The application's Ukrainian title is required.",
  "app.invalid_name":
    "The name (identifier) may hold only Latin letters, digits, '-' and '_', and starts with a letter or digit.",
  "app.unknown_scope": "Unknown scope. Allowed: openid, profile, email, kpi, offline_access, tax_id.",
  "app.rule_empty": "A rule needs an affiliation, a unit or a status.",
  "app.unknown_unit": "There is no unit with this code.",
  "app.rule_exists": "The application has this rule already.",
  "app.rule_not_found": "The application has no such rule (it may have been removed already).",
  "app.unknown_person": "There is no person with this username.",
  "app.bulk_grant_too_long": "The list is too long: at most 5,000 lines at a time. Split it.",
  "developer.not_allowed": "Students and employees of the university may register applications.",
  "developer.limit_reached":
    "You already have as many applications as one person may. Remove one you no longer need or ask the operators.",
  "developer.application_not_found": "This application is not among yours.",
  "developer.tester_limit": "An application in testing may have at most 25 testers.",
  "developer.invitation_not_found": "No such invitation: it was withdrawn, it expired or it has been answered.",
  "developer.too_many_invitations": "Too many invitations in a row. Wait a little and try again.",
  "developer.last_owner": "An application needs at least one owner.",
  "developer.review_not_possible":
    "The application cannot be sent for review now: it is already in review, already live, or suspended.",
  "developer.invalid_uri":
    "This address is not allowed: give a full https address (plain http only for http://localhost or http://127.0.0.1, your own computer), with no *, no name or password before the host and no # part.",
  "developer.insecure_uri":
    "Only https addresses, or http://localhost and http://127.0.0.1 for development, are allowed. Change this one.",
  "developer.uri_required": "Give at least one ticket callback or OpenID Connect redirect URI.",
  "developer.reserved_name":
    "An official university application has this name (or one that looks the same). Choose another.",
  "developer.invalid_characters":
    "Names and descriptions cannot hold control or invisible characters (line breaks, text direction overrides, zero-width characters).",
  "developer.under_review":
    "The application is under review: change it after the operators decide, so that they approve what they saw.",
  "developer.change_not_pending": "This change no longer waits for a decision: reload the page.",
  "developer.invalid_icon":
    "The icon must be a PNG or a plain SVG file of at most 64 KiB: shapes, gradients and text only, with no scripts, no styles beyond colours and no outside references (export as “plain SVG”).",
  "developer.callbacks_need_secret":
    "Ticket callbacks need a server that keeps the secret: a single-page, mobile or command-line application uses OpenID Connect with PKCE instead.",
  "developer.confirmation_mismatch": "Type the application's name exactly as shown to delete it.",
  "developer.no_secret":
    "A single-page, mobile or command-line application is a public client: it has no secret to replace.",
  "admin.review_outdated": "The request changed while you were reading it: look at it again.",
  "admin.review_not_pending": "This review request has already been decided.",
  "admin.application_name_taken": "An application with this name exists already.",
  "service.database_unavailable": "The service is temporarily unavailable. Try again in a minute.",
  "service.internal_error": "An internal error occurred. Try again later.",
} as const satisfies ErrorMessages;

export const errorMessages: Record<Language, ErrorMessages> = { uk: ukErrorMessages, en: enErrorMessages };

export function errorMessage(code: ErrorCode, language: Language): string {
  return errorMessages[language][code];
}
