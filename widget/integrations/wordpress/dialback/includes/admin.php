<?php
/**
 * The settings page (Settings → Dialback), for administrators only. The form posts to options.php,
 * which checks the nonce settings_fields() prints and the manage_options capability before the
 * sanitize callback runs.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

add_action( 'admin_init', 'dialback_register_settings' );
add_action( 'admin_menu', 'dialback_add_page' );
add_filter( 'plugin_action_links_' . DIALBACK_PLUGIN, 'dialback_action_links' );
add_action( 'admin_notices', 'dialback_missing_relay_notice' );

function dialback_sections() {
	return array(
		'relay'       => __( 'Relay, language and numbers', 'dialback' ),
		'look'        => __( 'Look', 'dialback' ),
		'departments' => __( 'Departments', 'dialback' ),
		'invitation'  => __( 'Invitation', 'dialback' ),
		'messengers'  => __( 'Messenger links', 'dialback' ),
		'privacy'     => __( 'Consent and security', 'dialback' ),
		'advanced'    => __( 'Advanced', 'dialback' ),
	);
}

function dialback_register_settings() {
	register_setting(
		'dialback',
		DIALBACK_OPTION,
		array(
			'type'              => 'array',
			'sanitize_callback' => 'dialback_sanitize',
			'show_in_rest'      => false,
		)
	);
	foreach ( dialback_sections() as $id => $title ) {
		add_settings_section( 'dialback_' . $id, $title, '__return_false', 'dialback' );
	}
	foreach ( dialback_fields() as $key => $field ) {
		add_settings_field( 'dialback_' . $key, esc_html( $field['label'] ), 'dialback_render_field', 'dialback', 'dialback_' . $field['section'], array( 'key' => $key, 'label_for' => 'dialback_' . $key ) );
	}
}

function dialback_add_page() {
	add_options_page( __( 'Dialback', 'dialback' ), __( 'Dialback', 'dialback' ), 'manage_options', 'dialback', 'dialback_render_page' );
}

function dialback_render_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	?>
	<div class="wrap">
		<h1><?php echo esc_html( get_admin_page_title() ); ?></h1>
		<p><?php esc_html_e( 'The click-to-call widget is loaded from your Dialback relay on every page of the site. Empty fields keep the widget\'s defaults.', 'dialback' ); ?></p>
		<form action="options.php" method="post">
			<?php
			settings_fields( 'dialback' );
			do_settings_sections( 'dialback' );
			submit_button();
			?>
		</form>
	</div>
	<?php
}

/**
 * One field of the form, escaped for its place.
 *
 * @param array $args add_settings_field()'s arguments.
 */
function dialback_render_field( $args ) {
	$key      = $args['key'];
	$field    = dialback_fields()[ $key ];
	$value    = dialback_settings()[ $key ];
	$id       = 'dialback_' . $key;
	$name     = DIALBACK_OPTION . '[' . $key . ']';
	$help_id  = $id . '_help';
	$has_help = ! empty( $field['help'] );
	$describe = $has_help ? ' aria-describedby="' . esc_attr( $help_id ) . '"' : '';
	if ( 'select' === $field['type'] ) {
		echo '<select id="' . esc_attr( $id ) . '" name="' . esc_attr( $name ) . '"' . $describe . '>'; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- built from esc_attr() above.
		foreach ( $field['options'] as $option => $label ) {
			echo '<option value="' . esc_attr( $option ) . '"' . selected( $value, $option, false ) . '>' . esc_html( $label ) . '</option>';
		}
		echo '</select>';
	} elseif ( 'checkbox' === $field['type'] ) {
		echo '<input type="hidden" name="' . esc_attr( $name ) . '" value="0">';
		echo '<input type="checkbox" id="' . esc_attr( $id ) . '" name="' . esc_attr( $name ) . '" value="1"' . checked( $value, '1', false ) . $describe . '>'; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- built from esc_attr() above.
	} else {
		$type = 'url' === $field['type'] ? 'url' : 'text';
		echo '<input type="' . esc_attr( $type ) . '" class="regular-text" id="' . esc_attr( $id ) . '" name="' . esc_attr( $name ) . '" value="' . esc_attr( $value ) . '"' . $describe . '>'; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- built from esc_attr() above.
	}
	if ( $has_help ) {
		echo '<p class="description" id="' . esc_attr( $help_id ) . '">' . esc_html( $field['help'] ) . '</p>';
	}
}

/**
 * A "Settings" link beside Deactivate on the Plugins screen.
 *
 * @param array $links The row's links.
 */
function dialback_action_links( $links ) {
	array_unshift( $links, '<a href="' . esc_url( admin_url( 'options-general.php?page=dialback' ) ) . '">' . esc_html__( 'Settings', 'dialback' ) . '</a>' );
	return $links;
}

/** Until the relay address is set the widget is not loaded: administrators are told where to set it. */
function dialback_missing_relay_notice() {
	$screen = get_current_screen();
	if ( ! current_user_can( 'manage_options' ) || ! $screen || 'plugins' !== $screen->id || '' !== dialback_settings()['relay'] ) {
		return;
	}
	echo '<div class="notice notice-warning"><p>' . esc_html__( 'Dialback is active but shows nothing yet: set your relay address.', 'dialback' ) . ' <a href="' . esc_url( admin_url( 'options-general.php?page=dialback' ) ) . '">' . esc_html__( 'Settings', 'dialback' ) . '</a></p></div>';
}
