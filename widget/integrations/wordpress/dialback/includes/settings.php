<?php
/**
 * The settings: one option holding every data-* setting of the widget, each checked on save.
 * A value the widget could not use is refused with a message naming the field, and the saved
 * value stays as it was.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** The languages the widget speaks (its data-lang values). */
function dialback_languages() {
	return array(
		'en' => __( 'English', 'dialback' ),
		'uk' => __( 'Ukrainian', 'dialback' ),
		'ru' => __( 'Russian', 'dialback' ),
		'pl' => __( 'Polish', 'dialback' ),
		'de' => __( 'German', 'dialback' ),
		'cs' => __( 'Czech', 'dialback' ),
		'ro' => __( 'Romanian', 'dialback' ),
		'lt' => __( 'Lithuanian', 'dialback' ),
		'lv' => __( 'Latvian', 'dialback' ),
		'et' => __( 'Estonian', 'dialback' ),
		'kk' => __( 'Kazakh', 'dialback' ),
		'es' => __( 'Spanish', 'dialback' ),
	);
}

/**
 * Every setting, in the order of the settings page. `attr` is the script tag's attribute (without
 * data-); the relay address is the script's own address instead.
 */
function dialback_fields() {
	return array(
		'relay'             => array( 'section' => 'relay', 'type' => 'url', 'label' => __( 'Relay address', 'dialback' ), 'help' => __( 'The address of your Dialback relay, such as https://calls.example.com. The widget is loaded from it. Your site\'s address must be in the relay\'s ALLOWED_ORIGINS.', 'dialback' ) ),
		'lang'              => array( 'section' => 'relay', 'type' => 'select', 'attr' => 'lang', 'label' => __( 'Language', 'dialback' ), 'options' => array( '' => __( 'The page\'s language, else the visitor\'s browser', 'dialback' ) ) + dialback_languages() ),
		'country'           => array( 'section' => 'relay', 'type' => 'country', 'attr' => 'country', 'label' => __( 'Country for national numbers', 'dialback' ), 'help' => __( 'Two letters (ISO 3166), such as UA or PL, for numbers typed without a country code. Empty: the country of the language.', 'dialback' ) ),
		'phone'             => array( 'section' => 'relay', 'type' => 'phone', 'attr' => 'phone', 'label' => __( 'Office phone number', 'dialback' ), 'help' => __( 'Offered as a link to call whenever a callback cannot happen, such as +380 44 111 22 33.', 'dialback' ) ),
		'position'          => array( 'section' => 'look', 'type' => 'select', 'attr' => 'position', 'label' => __( 'Button position', 'dialback' ), 'options' => array( 'bottom-right' => __( 'Bottom right', 'dialback' ), 'bottom-left' => __( 'Bottom left', 'dialback' ) ) ),
		'color'             => array( 'section' => 'look', 'type' => 'text', 'attr' => 'color', 'label' => __( 'Accent colour', 'dialback' ), 'help' => __( 'Any CSS colour, such as #0b57d0.', 'dialback' ) ),
		'launcher'          => array( 'section' => 'look', 'type' => 'checkbox', 'attr' => 'launcher', 'label' => __( 'Floating button', 'dialback' ), 'help' => __( 'Show the floating button. Untick it when your own buttons open the dialog: give them the attribute data-dialback-open.', 'dialback' ) ),
		'departments'       => array( 'section' => 'departments', 'type' => 'text', 'attr' => 'departments', 'label' => __( 'Departments offered', 'dialback' ), 'help' => __( 'Ids of the relay\'s departments, separated by commas, such as sales,support. Empty: all of them.', 'dialback' ) ),
		'department'        => array( 'section' => 'departments', 'type' => 'text', 'attr' => 'department', 'label' => __( 'Department chosen first', 'dialback' ) ),
		'invite'            => array( 'section' => 'invitation', 'type' => 'text', 'attr' => 'invite', 'label' => __( 'Invitation triggers', 'dialback' ), 'help' => __( 'When to invite the visitor to ask for a call: exit, time:45 (seconds), scroll:60 (percent), pages:3. Empty: no invitation.', 'dialback' ) ),
		'invite_text'       => array( 'section' => 'invitation', 'type' => 'text', 'attr' => 'invite-text', 'label' => __( 'Invitation sentence', 'dialback' ), 'help' => __( 'Your own sentence for when someone can answer now. Empty: one in the widget\'s language.', 'dialback' ) ),
		'invite_days'       => array( 'section' => 'invitation', 'type' => 'days', 'attr' => 'invite-days', 'label' => __( 'Days between invitations', 'dialback' ), 'help' => __( '0: once per browser session. Empty: 1.', 'dialback' ) ),
		'invite_exclude'    => array( 'section' => 'invitation', 'type' => 'text', 'attr' => 'invite-exclude', 'label' => __( 'No invitation on', 'dialback' ), 'help' => __( 'Path prefixes, separated by commas, such as /checkout,/cart.', 'dialback' ) ),
		'telegram'          => array( 'section' => 'messengers', 'type' => 'text', 'attr' => 'telegram', 'label' => __( 'Telegram username', 'dialback' ) ),
		'whatsapp'          => array( 'section' => 'messengers', 'type' => 'text', 'attr' => 'whatsapp', 'label' => __( 'WhatsApp number', 'dialback' ), 'help' => __( 'With its country code.', 'dialback' ) ),
		'viber'             => array( 'section' => 'messengers', 'type' => 'text', 'attr' => 'viber', 'label' => __( 'Viber number', 'dialback' ), 'help' => __( 'With its country code.', 'dialback' ) ),
		'consent'           => array( 'section' => 'privacy', 'type' => 'select', 'attr' => 'consent', 'label' => __( 'Cookie consent', 'dialback' ), 'options' => array( 'wp' => __( 'Follow the WP Consent API when it is installed, else let the widget decide', 'dialback' ), 'auto' => __( 'Let the widget find the page\'s consent signal', 'dialback' ), 'required' => __( 'Read no cookie until the page calls dialback(\'consent\', ...)', 'dialback' ), 'off' => __( 'Ignore consent', 'dialback' ) ), 'help' => __( 'Whether the widget may read the analytics and call-tracking cookies for attribution. The callback itself always works.', 'dialback' ) ),
		'consent_text'      => array( 'section' => 'privacy', 'type' => 'text', 'attr' => 'consent-text', 'label' => __( 'Consent checkbox sentence', 'dialback' ), 'help' => __( 'Shows a required checkbox with this sentence in the dialog.', 'dialback' ) ),
		'privacy_url'       => array( 'section' => 'privacy', 'type' => 'link', 'attr' => 'privacy-url', 'label' => __( 'Privacy policy address', 'dialback' ), 'help' => __( 'Linked next to the consent checkbox: an http(s) address or a path on your site.', 'dialback' ) ),
		'turnstile_sitekey' => array( 'section' => 'privacy', 'type' => 'text', 'attr' => 'turnstile-sitekey', 'label' => __( 'Cloudflare Turnstile site key', 'dialback' ) ),
		'api'               => array( 'section' => 'advanced', 'type' => 'url', 'attr' => 'relay', 'label' => __( 'API address, if not the relay\'s', 'dialback' ), 'help' => __( 'Only when the relay\'s API lives at another address than its widget.js.', 'dialback' ) ),
	);
}

/** The saved settings over the defaults: every key is there. */
function dialback_settings() {
	$defaults = array_fill_keys( array_keys( dialback_fields() ), '' );
	$defaults = array_merge( $defaults, array( 'position' => 'bottom-right', 'launcher' => '1', 'consent' => 'wp' ) );
	$saved    = get_option( DIALBACK_OPTION, array() );
	return array_merge( $defaults, is_array( $saved ) ? array_intersect_key( $saved, $defaults ) : array() );
}

/**
 * One field's value as it will be saved, or WP_Error when the widget could not use it.
 *
 * @param array  $field The field (dialback_fields()).
 * @param string $value What was typed, unslashed.
 */
function dialback_clean( $field, $value ) {
	$value = trim( sanitize_text_field( $value ) );
	if ( '' === $value && 'checkbox' !== $field['type'] ) {
		return '';
	}
	switch ( $field['type'] ) {
		case 'url':
			$url = esc_url_raw( $value, array( 'https', 'http' ) );
			return $url && preg_match( '#^https?://[^/?\#\s]+(/[^?\#\s]*)?$#', $url ) ? untrailingslashit( $url ) : new WP_Error( 'url', __( 'an http(s) address without ? or #, such as https://calls.example.com', 'dialback' ) );
		case 'link':
			return '/' === $value[0] || preg_match( '#^https?://#i', $value ) ? esc_url_raw( $value, array( 'https', 'http' ) ) : new WP_Error( 'link', __( 'an http(s) address or a path starting with /', 'dialback' ) );
		case 'select':
			return array_key_exists( $value, $field['options'] ) ? $value : new WP_Error( 'select', __( 'one of the choices offered', 'dialback' ) );
		case 'country':
			return preg_match( '/^[A-Za-z]{2}$/', $value ) ? strtoupper( $value ) : new WP_Error( 'country', __( 'two letters, such as UA', 'dialback' ) );
		case 'phone':
			return preg_match( '/^\+?[\d\s().-]{3,30}$/', $value ) ? $value : new WP_Error( 'phone', __( 'digits, spaces, brackets, dots and dashes, with + before the country code', 'dialback' ) );
		case 'days':
			return preg_match( '/^\d{1,3}$/', $value ) ? $value : new WP_Error( 'days', __( 'a whole number of days', 'dialback' ) );
		case 'checkbox':
			return '1' === $value ? '1' : '0';
		default:
			return $value;
	}
}

/**
 * The settings form's sanitize callback (register_setting): each field cleaned, a refused one named
 * in a message and kept as it was.
 *
 * @param mixed $input The posted option.
 */
function dialback_sanitize( $input ) {
	$input = is_array( $input ) ? $input : array();
	$saved = dialback_settings();
	$clean = array();
	foreach ( dialback_fields() as $key => $field ) {
		// options.php has unslashed the form already.
		$raw   = isset( $input[ $key ] ) && is_string( $input[ $key ] ) ? $input[ $key ] : '';
		$value = dialback_clean( $field, $raw );
		if ( is_wp_error( $value ) ) {
			/* translators: 1: the field's label, 2: what it takes. */
			add_settings_error( DIALBACK_OPTION, 'dialback_' . $key, sprintf( __( '%1$s was not saved: it takes %2$s.', 'dialback' ), $field['label'], $value->get_error_message() ) );
			$value = $saved[ $key ];
		}
		$clean[ $key ] = $value;
	}
	return $clean;
}
