___TERMS_OF_SERVICE___

By creating or modifying this file you agree to Google Tag Manager's Community
Template Gallery Developer Terms of Service available at
https://developers.google.com/tag-manager/gallery-tos (or such other URL as
Google may provide), as modified from time to time.


___INFO___

{
  "type": "TAG",
  "id": "cvt_temp_public_id",
  "version": 1,
  "securityGroups": [],
  "displayName": "Dialback click-to-call widget",
  "categories": [
    "LEAD_GENERATION",
    "CHAT"
  ],
  "brand": {
    "id": "brand_dummy",
    "displayName": "Dialback"
  },
  "description": "Adds the Dialback click-to-call widget: a visitor leaves a number and is called back through your call-tracking service, with the visit's utm source and client id. Loads widget.js from your relay, passes this tag's settings and follows Consent Mode.",
  "containerContexts": [
    "WEB"
  ]
}


___TEMPLATE_PARAMETERS___

[
  {
    "type": "TEXT",
    "name": "relayUrl",
    "displayName": "Relay address",
    "simpleValueType": true,
    "valueHint": "https://calls.example.com",
    "help": "The address of your Dialback relay (the server that places the calls). The tag loads widget.js from it. Your site's address must be in the relay's ALLOWED_ORIGINS.",
    "valueValidators": [
      {
        "type": "NON_EMPTY"
      },
      {
        "type": "REGEX",
        "args": [
          "^https://[^\\s/?#]+(/[^\\s?#]*)?$"
        ],
        "errorMessage": "An https:// address, without ? or #."
      }
    ],
    "alwaysInSummary": true
  },
  {
    "type": "GROUP",
    "name": "numbers",
    "displayName": "Language and numbers",
    "groupStyle": "ZIPPY_OPEN",
    "subParams": [
      {
        "type": "SELECT",
        "name": "lang",
        "displayName": "Language",
        "macrosInSelect": false,
        "selectItems": [
          {
            "value": "",
            "displayValue": "The page's language (html lang), else the browser's"
          },
          {
            "value": "en",
            "displayValue": "English"
          },
          {
            "value": "uk",
            "displayValue": "Ukrainian"
          },
          {
            "value": "ru",
            "displayValue": "Russian"
          },
          {
            "value": "pl",
            "displayValue": "Polish"
          },
          {
            "value": "de",
            "displayValue": "German"
          },
          {
            "value": "cs",
            "displayValue": "Czech"
          },
          {
            "value": "ro",
            "displayValue": "Romanian"
          },
          {
            "value": "lt",
            "displayValue": "Lithuanian"
          },
          {
            "value": "lv",
            "displayValue": "Latvian"
          },
          {
            "value": "et",
            "displayValue": "Estonian"
          },
          {
            "value": "kk",
            "displayValue": "Kazakh"
          },
          {
            "value": "es",
            "displayValue": "Spanish"
          }
        ],
        "simpleValueType": true,
        "defaultValue": "",
        "help": "The language the widget speaks (data-lang)."
      },
      {
        "type": "TEXT",
        "name": "country",
        "displayName": "Country for national numbers",
        "simpleValueType": true,
        "valueHint": "UA",
        "help": "Two letters (ISO 3166), such as UA or PL, for numbers typed without a country code (data-country). Default: the country of the language.",
        "valueValidators": [
          {
            "type": "REGEX",
            "args": [
              "^([A-Za-z]{2})?$"
            ],
            "errorMessage": "Two letters, such as UA."
          }
        ]
      },
      {
        "type": "TEXT",
        "name": "phone",
        "displayName": "Office phone number",
        "simpleValueType": true,
        "valueHint": "+380 44 111 22 33",
        "help": "Your number, offered as a link to call whenever a callback cannot happen (data-phone).",
        "valueValidators": [
          {
            "type": "REGEX",
            "args": [
              "^(\\+?[\\d\\s().-]{3,30})?$"
            ],
            "errorMessage": "Digits, spaces, brackets, dots and dashes, with a leading + for the country code."
          }
        ]
      }
    ]
  },
  {
    "type": "GROUP",
    "name": "look",
    "displayName": "Look",
    "groupStyle": "ZIPPY_CLOSED",
    "subParams": [
      {
        "type": "SELECT",
        "name": "position",
        "displayName": "Button position",
        "macrosInSelect": false,
        "selectItems": [
          {
            "value": "bottom-right",
            "displayValue": "Bottom right"
          },
          {
            "value": "bottom-left",
            "displayValue": "Bottom left"
          }
        ],
        "simpleValueType": true,
        "defaultValue": "bottom-right",
        "help": "Where the floating button sits (data-position)."
      },
      {
        "type": "TEXT",
        "name": "color",
        "displayName": "Accent colour",
        "simpleValueType": true,
        "valueHint": "#0b57d0",
        "help": "Any CSS colour for the button and the dialog's accents (data-color). The text on it is black or white, whichever contrasts more."
      },
      {
        "type": "CHECKBOX",
        "name": "launcher",
        "checkboxText": "Show the floating button",
        "simpleValueType": true,
        "defaultValue": true,
        "help": "Untick it when your own buttons open the dialog: give them the attribute data-dialback-open (data-launcher)."
      }
    ]
  },
  {
    "type": "GROUP",
    "name": "departmentsGroup",
    "displayName": "Departments",
    "groupStyle": "ZIPPY_CLOSED",
    "subParams": [
      {
        "type": "TEXT",
        "name": "departments",
        "displayName": "Departments offered",
        "simpleValueType": true,
        "valueHint": "sales,support",
        "help": "Ids of the relay's departments this site offers, separated by commas (data-departments). Default: all of them."
      },
      {
        "type": "TEXT",
        "name": "department",
        "displayName": "Department chosen first",
        "simpleValueType": true,
        "valueHint": "sales",
        "help": "The id chosen when the dialog opens (data-department). Default: the first that can answer now."
      }
    ]
  },
  {
    "type": "GROUP",
    "name": "invitation",
    "displayName": "Invitation",
    "groupStyle": "ZIPPY_CLOSED",
    "subParams": [
      {
        "type": "TEXT",
        "name": "invite",
        "displayName": "Triggers",
        "simpleValueType": true,
        "valueHint": "exit, time:45, scroll:60",
        "help": "When to invite the visitor to ask for a call (data-invite): exit, time:N (seconds), scroll:N (percent), pages:N. Empty: no invitation."
      },
      {
        "type": "TEXT",
        "name": "inviteText",
        "displayName": "Sentence",
        "simpleValueType": true,
        "help": "Your own sentence for when someone can answer now (data-invite-text). Default: one in the widget's language."
      },
      {
        "type": "TEXT",
        "name": "inviteDays",
        "displayName": "Days between invitations",
        "simpleValueType": true,
        "valueHint": "1",
        "help": "After being shown, the invitation stays away this many days; 0: once per session (data-invite-days).",
        "valueValidators": [
          {
            "type": "REGEX",
            "args": [
              "^(\\d{1,3})?$"
            ],
            "errorMessage": "A whole number of days."
          }
        ]
      },
      {
        "type": "TEXT",
        "name": "inviteExclude",
        "displayName": "Never on these paths",
        "simpleValueType": true,
        "valueHint": "/checkout,/cart",
        "help": "Path prefixes, separated by commas, where the invitation never shows (data-invite-exclude)."
      }
    ]
  },
  {
    "type": "GROUP",
    "name": "messengers",
    "displayName": "Messenger links",
    "groupStyle": "ZIPPY_CLOSED",
    "subParams": [
      {
        "type": "TEXT",
        "name": "telegram",
        "displayName": "Telegram username",
        "simpleValueType": true,
        "valueHint": "@acme_support",
        "help": "Shown as a t.me link (data-telegram)."
      },
      {
        "type": "TEXT",
        "name": "whatsapp",
        "displayName": "WhatsApp number",
        "simpleValueType": true,
        "valueHint": "+380 50 123 45 67",
        "help": "With its country code (data-whatsapp)."
      },
      {
        "type": "TEXT",
        "name": "viber",
        "displayName": "Viber number",
        "simpleValueType": true,
        "valueHint": "+380 50 123 45 67",
        "help": "With its country code (data-viber)."
      }
    ]
  },
  {
    "type": "GROUP",
    "name": "privacy",
    "displayName": "Consent and security",
    "groupStyle": "ZIPPY_CLOSED",
    "subParams": [
      {
        "type": "SELECT",
        "name": "consent",
        "displayName": "Cookie consent",
        "macrosInSelect": false,
        "selectItems": [
          {
            "value": "gtm",
            "displayValue": "Follow this container's consent (Consent Mode: analytics_storage, ad_storage)"
          },
          {
            "value": "auto",
            "displayValue": "Let the widget find the page's consent signal itself"
          },
          {
            "value": "required",
            "displayValue": "Read no cookie until the page calls dialback('consent', ...)"
          },
          {
            "value": "off",
            "displayValue": "Ignore consent"
          }
        ],
        "simpleValueType": true,
        "defaultValue": "gtm",
        "help": "Whether the widget may read the analytics and call-tracking cookies for attribution (data-consent). The callback itself always works."
      },
      {
        "type": "TEXT",
        "name": "consentText",
        "displayName": "Consent checkbox sentence",
        "simpleValueType": true,
        "valueHint": "I agree to be called back.",
        "help": "Shows a required checkbox with this sentence in the dialog (data-consent-text)."
      },
      {
        "type": "TEXT",
        "name": "privacyUrl",
        "displayName": "Privacy policy address",
        "simpleValueType": true,
        "valueHint": "https://shop.example.com/privacy",
        "help": "Linked next to the consent checkbox (data-privacy-url).",
        "valueValidators": [
          {
            "type": "REGEX",
            "args": [
              "^((https?://|/)\\S*)?$"
            ],
            "errorMessage": "An http(s) address or a path on your site."
          }
        ]
      },
      {
        "type": "TEXT",
        "name": "turnstileSitekey",
        "displayName": "Cloudflare Turnstile site key",
        "simpleValueType": true,
        "help": "Runs Cloudflare's check before each request; the relay needs TURNSTILE_SECRET (data-turnstile-sitekey)."
      }
    ]
  },
  {
    "type": "GROUP",
    "name": "advanced",
    "displayName": "Advanced",
    "groupStyle": "ZIPPY_CLOSED",
    "subParams": [
      {
        "type": "TEXT",
        "name": "relay",
        "displayName": "API address, if not the relay's",
        "simpleValueType": true,
        "help": "Only when the relay's API lives at another address than widget.js (data-relay).",
        "valueValidators": [
          {
            "type": "REGEX",
            "args": [
              "^(https://\\S+)?$"
            ],
            "errorMessage": "An https:// address."
          }
        ]
      }
    ]
  }
]


___SANDBOXED_JS_FOR_WEB_TEMPLATE___

// Dialback: loads the click-to-call widget from your relay and hands it this tag's settings through
// the widget's command queue. dialback('config', {...}) queued before widget.js runs counts as the
// script tag's data-* attributes; dialback('consent', {...}) tells it what the visitor allowed.
const addConsentListener = require('addConsentListener');
const callInWindow = require('callInWindow');
const copyFromWindow = require('copyFromWindow');
const createArgumentsQueue = require('createArgumentsQueue');
const injectScript = require('injectScript');
const isConsentGranted = require('isConsentGranted');
const log = require('logToConsole');
const makeString = require('makeString');

// The settings passed on, named as dialback('config') names them: the data-* attribute in camelCase.
const settings = ['lang', 'country', 'phone', 'position', 'color', 'departments', 'department', 'invite', 'inviteText', 'inviteDays', 'inviteExclude', 'telegram', 'whatsapp', 'viber', 'consentText', 'privacyUrl', 'turnstileSitekey', 'relay'];

let relay = makeString(data.relayUrl || '').trim();
while (relay.charAt(relay.length - 1) === '/') relay = relay.substring(0, relay.length - 1);
if (relay.indexOf('https://') !== 0) {
  log('Dialback: the relay address must start with https:// (is "' + relay + '")');
  data.gtmOnFailure();
  return;
}
const src = relay + '/widget.js';

// Empty fields are left out: the widget's defaults apply.
const config = {};
settings.forEach((name) => {
  const value = data[name] === undefined || data[name] === null ? '' : makeString(data[name]).trim();
  if (value !== '') config[name] = value;
});
if (data.launcher === false) config.launcher = 'false';
// Following this container's consent: the widget reads no cookie until it is told, which the
// commands below do before widget.js even runs.
const consent = data.consent || 'gtm';
if (consent === 'gtm') config.consent = 'required';
else if (consent !== 'auto') config.consent = consent;

// The page's queue, as the widget's own snippet makes it, unless the widget (or the queue) is there.
if (!copyFromWindow('dialback')) createArgumentsQueue('dialback', 'dialback.q');
callInWindow('dialback', 'config', config);

if (consent === 'gtm') {
  // Both purposes, read afresh on every change of either.
  const tell = () => callInWindow('dialback', 'consent', { analytics: isConsentGranted('analytics_storage'), ads: isConsentGranted('ad_storage') });
  tell();
  addConsentListener('analytics_storage', tell);
  addConsentListener('ad_storage', tell);
}

injectScript(
  src,
  data.gtmOnSuccess,
  () => {
    log('Dialback: ' + src + ' could not be loaded');
    data.gtmOnFailure();
  },
  src
);


___WEB_PERMISSIONS___

[
  {
    "instance": {
      "key": {
        "publicId": "logging",
        "versionId": "1"
      },
      "param": [
        {
          "key": "environments",
          "value": {
            "type": 1,
            "string": "debug"
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  },
  {
    "instance": {
      "key": {
        "publicId": "inject_script",
        "versionId": "1"
      },
      "param": [
        {
          "key": "urls",
          "value": {
            "type": 2,
            "listItem": [
              {
                "type": 1,
                "string": "https://*/widget.js"
              },
              {
                "type": 1,
                "string": "https://*/*/widget.js"
              }
            ]
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  },
  {
    "instance": {
      "key": {
        "publicId": "access_globals",
        "versionId": "1"
      },
      "param": [
        {
          "key": "keys",
          "value": {
            "type": 2,
            "listItem": [
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "key"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  },
                  {
                    "type": 1,
                    "string": "execute"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "dialback"
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": true
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "key"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  },
                  {
                    "type": 1,
                    "string": "execute"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "dialback.q"
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": false
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  },
  {
    "instance": {
      "key": {
        "publicId": "access_consent",
        "versionId": "1"
      },
      "param": [
        {
          "key": "consentTypes",
          "value": {
            "type": 2,
            "listItem": [
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "analytics_storage"
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": false
                  }
                ]
              },
              {
                "type": 3,
                "mapKey": [
                  {
                    "type": 1,
                    "string": "consentType"
                  },
                  {
                    "type": 1,
                    "string": "read"
                  },
                  {
                    "type": 1,
                    "string": "write"
                  }
                ],
                "mapValue": [
                  {
                    "type": 1,
                    "string": "ad_storage"
                  },
                  {
                    "type": 8,
                    "boolean": true
                  },
                  {
                    "type": 8,
                    "boolean": false
                  }
                ]
              }
            ]
          }
        }
      ]
    },
    "clientAnnotations": {
      "isEditedByUser": true
    },
    "isRequired": true
  }
]


___TESTS___

scenarios:
- name: Loads widget.js from the relay, once, and reports success
  code: |-
    runCode(mockData);
    assertApi('injectScript').wasCalled();
    assertThat(injected).isEqualTo(['https://calls.example.com/widget.js']);
    assertApi('gtmOnSuccess').wasCalled();
    assertApi('gtmOnFailure').wasNotCalled();
- name: Hands the filled-in settings over with dialback('config'), empty ones left out
  code: |-
    runCode(mockData);
    assertApi('createArgumentsQueue').wasCalledWith('dialback', 'dialback.q');
    assertThat(queued[0]).isEqualTo(['dialback', 'config', {
      lang: 'uk', country: 'UA', phone: '+380 44 111 22 33', position: 'bottom-left',
      invite: 'exit, time:45', telegram: '@acme_support', consent: 'required'
    }]);
- name: An unticked floating button is launcher false
  code: |-
    mockData.launcher = false;
    runCode(mockData);
    assertThat(queued[0][2].launcher).isEqualTo('false');
- name: Tells the widget the consent state, then every change of it
  code: |-
    consentState.analytics_storage = false;
    runCode(mockData);
    assertThat(queued[1]).isEqualTo(['dialback', 'consent', { analytics: false, ads: true }]);
    consentState.analytics_storage = true;
    listeners.analytics_storage('analytics_storage', true);
    assertThat(queued[2]).isEqualTo(['dialback', 'consent', { analytics: true, ads: true }]);
    consentState.ad_storage = false;
    listeners.ad_storage('ad_storage', false);
    assertThat(queued[3]).isEqualTo(['dialback', 'consent', { analytics: true, ads: false }]);
- name: Consent left to the widget sends no consent command
  code: |-
    mockData.consent = 'auto';
    runCode(mockData);
    assertThat(queued.length).isEqualTo(1);
    assertThat(queued[0][2].consent).isUndefined();
    assertApi('addConsentListener').wasNotCalled();
- name: The widget already on the page gets the commands; no second queue
  code: |-
    mock('copyFromWindow', (key) => key === 'dialback');
    runCode(mockData);
    assertApi('createArgumentsQueue').wasNotCalled();
    assertThat(queued[0][1]).isEqualTo('config');
- name: A relay address without https is refused before anything is loaded
  code: |-
    mockData.relayUrl = 'http://calls.example.com';
    runCode(mockData);
    assertApi('injectScript').wasNotCalled();
    assertApi('gtmOnFailure').wasCalled();
- name: A widget.js that cannot be loaded reports failure
  code: |-
    mock('injectScript', (url, onSuccess, onFailure) => onFailure());
    runCode(mockData);
    assertApi('gtmOnFailure').wasCalled();
    assertApi('gtmOnSuccess').wasNotCalled();
setup: |-
  const mockData = {
    relayUrl: 'https://calls.example.com/',
    lang: 'uk',
    country: 'UA',
    phone: '+380 44 111 22 33',
    position: 'bottom-left',
    color: '',
    launcher: true,
    invite: 'exit, time:45',
    inviteText: '  ',
    telegram: '@acme_support',
    consent: 'gtm'
  };
  const injected = [];
  const queued = [];
  const listeners = {};
  const consentState = { analytics_storage: true, ad_storage: true };
  mock('injectScript', (url, onSuccess, onFailure, cacheToken) => {
    injected.push(url);
    onSuccess();
  });
  mock('copyFromWindow', (key) => undefined);
  mock('createArgumentsQueue', (fnKey, arrayKey) => undefined);
  mock('callInWindow', (path, command, value) => {
    queued.push([path, command, value]);
  });
  mock('isConsentGranted', (type) => consentState[type]);
  mock('addConsentListener', (type, listener) => {
    listeners[type] = listener;
  });


___NOTES___

The settings are the script tag's data-* attributes (docs/embedding.md); the Node test
test/build/gtm-template.test.ts runs this file's code and its tests against fakes of the sandbox APIs.
