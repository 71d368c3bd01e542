<?php
/**
 * The widget on the site: widget.js from the relay, async, in the footer, with the settings as the
 * tag's data-* attributes. WordPress 6.1 has no loading strategy for enqueued scripts (6.3 added
 * one), so `async` goes in with the script_loader_tag filter, as the attributes do.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

add_action( 'wp_enqueue_scripts', 'dialback_enqueue' );
add_filter( 'script_loader_tag', 'dialback_script_tag', 10, 2 );

/** Whether the WP Consent API plugin is there to follow. */
function dialback_follows_consent_api() {
	return 'wp' === dialback_settings()['consent'] && function_exists( 'wp_has_consent' );
}

function dialback_enqueue() {
	$relay = dialback_settings()['relay'];
	if ( '' === $relay ) {
		return;
	}
	// No version: the relay serves widget.js with its own caching, under its own name.
	wp_enqueue_script( 'dialback', $relay . '/widget.js', array(), null, true ); // phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion
	if ( dialback_follows_consent_api() ) {
		wp_add_inline_script( 'dialback', dialback_consent_script(), 'before' );
	}
}

/**
 * The widget's attributes from the settings (empty ones left out: the widget's defaults apply).
 *
 * @return array attribute name (without data-) => value.
 */
function dialback_attributes() {
	$settings   = dialback_settings();
	$attributes = array();
	foreach ( dialback_fields() as $key => $field ) {
		if ( isset( $field['attr'] ) && '' !== $settings[ $key ] ) {
			$attributes[ $field['attr'] ] = $settings[ $key ];
		}
	}
	if ( '1' === $settings['launcher'] ) {
		unset( $attributes['launcher'] );
	} else {
		$attributes['launcher'] = 'false';
	}
	// Following the WP Consent API: the widget reads no cookie until the script before it says what
	// the visitor allowed. Without the API the widget decides alone ("auto", its default).
	unset( $attributes['consent'] );
	if ( dialback_follows_consent_api() ) {
		$attributes['consent'] = 'required';
	} elseif ( in_array( $settings['consent'], array( 'required', 'off' ), true ) ) {
		$attributes['consent'] = $settings['consent'];
	}
	return $attributes;
}

/**
 * Adds async and the data-* attributes to the widget's own tag (not to the inline script before it).
 *
 * @param string $tag    The script element(s) WordPress prints for the handle.
 * @param string $handle The script's handle.
 */
function dialback_script_tag( $tag, $handle ) {
	if ( 'dialback' !== $handle ) {
		return $tag;
	}
	$attributes = ' async';
	foreach ( dialback_attributes() as $name => $value ) {
		$attributes .= ' data-' . $name . '="' . esc_attr( $value ) . '"';
	}
	return preg_replace( '/<script(?=[^>]*\sid=([\'"])dialback-js\1)/', '<script' . $attributes, $tag, 1 );
}

/**
 * The WP Consent API, followed in the browser (so cached pages are right too): the widget is told
 * whether statistics (Google Analytics) and marketing (call tracking) are allowed once the API's
 * script has run, and again on each wp_listen_for_consent_change. The API's script comes last in
 * the footer, after this one, hence the wait for DOMContentLoaded when it is not there yet.
 */
function dialback_consent_script() {
	return "window.dialback = window.dialback || function () { (dialback.q = dialback.q || []).push(arguments) };\n"
		. "(function () {\n"
		. "  function tell() {\n"
		. "    if (typeof wp_has_consent === 'function') dialback('consent', { analytics: wp_has_consent('statistics'), ads: wp_has_consent('marketing') });\n"
		. "  }\n"
		. "  document.addEventListener('wp_listen_for_consent_change', tell);\n"
		. "  if (typeof wp_has_consent === 'function') tell();\n"
		. "  else document.addEventListener('DOMContentLoaded', tell);\n"
		. "})();";
}
